-- A step that left a run's timeline (inferred steps replaced by fewer declared ones) gets a newer verdict row with
-- withdrawn = true: it supersedes the step's earlier verdict in FINAL reads, and readers skip it (streams/README.md,
-- "Partials, steps and late data"), so no query shows a verdict for a step the run no longer has.
ALTER TABLE step_verdicts ADD COLUMN IF NOT EXISTS withdrawn Bool DEFAULT false;
