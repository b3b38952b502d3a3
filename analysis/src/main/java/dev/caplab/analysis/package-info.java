/** Capacity analysis: pure functions from per-step numbers to fitted models and verdicts. */
package dev.caplab.analysis;
