# Reference values for caplab's analysis library, computed with R's segmented package (Muggeo).
# Regenerate from this directory:  Rscript reference.R > reference.properties
# (Debian: apt-get install r-base-core r-cran-segmented). CI does not run R; tests read reference.properties.
suppressPackageStartupMessages(library(segmented))
out <- function(key, value) cat(sprintf("%s=%.10g\n", key, value))
cat(sprintf("# R %s, segmented %s\n", paste(R.version$major, R.version$minor, sep = "."), packageVersion("segmented")))

write_fixture <- function(name, d) write.csv(d, paste0(name, ".csv"), row.names = FALSE, quote = FALSE)

report_segmented <- function(name, d, psi0) {
  lin <- if (is.null(d$w)) lm(y ~ x, data = d) else lm(y ~ x, data = d, weights = w)
  o <- segmented(lin, seg.Z = ~x, psi = psi0, control = seg.control(display = FALSE))
  k <- length(psi0)
  ci <- confint(o, digits = 12)
  for (j in 1:k) {
    out(sprintf("%s.psi%d", name, j), o$psi[j, 2])
    out(sprintf("%s.psi%d.se", name, j), o$psi[j, 3])
    out(sprintf("%s.psi%d.lower95", name, j), ci[j, 2])
    out(sprintf("%s.psi%d.upper95", name, j), ci[j, 3])
  }
  sl <- slope(o, digits = 12)$x
  ic <- intercept(o, digits = 12)$x
  for (j in 1:(k + 1)) {
    out(sprintf("%s.slope%d", name, j), sl[j, 1])
    out(sprintf("%s.slope%d.se", name, j), sl[j, 2])
    out(sprintf("%s.slope%d.lower95", name, j), sl[j, 4])
    out(sprintf("%s.slope%d.upper95", name, j), sl[j, 5])
    out(sprintf("%s.intercept%d", name, j), ic[j, 1])
  }
  out(sprintf("%s.bic", name), BIC(o))
  out(sprintf("%s.bic.linear", name), BIC(lin))
  out(sprintf("%s.r2", name), summary(o)$r.squared)
  dv <- davies.test(lin, seg.Z = ~x, k = 10, type = "wald")
  out(sprintf("%s.davies.p", name), dv$p.value)
  out(sprintf("%s.davies.best", name), dv$statistic[[1]])
}

# 1) one breakpoint at x = 90: slope 0.5 then 2.0, noise sd 3, 15 steps.
set.seed(42)
x <- seq(10, 150, by = 10)
d1 <- data.frame(x = x, y = 5 + 0.5 * x + 1.5 * pmax(x - 90, 0) + rnorm(length(x), sd = 3))
write_fixture("seg1", d1)
report_segmented("seg1", d1, 80)

# 2) two breakpoints at 40 and 110: slopes 1, 0.2, 3; noise sd 2, 24 steps.
set.seed(7)
x <- seq(5, 166, by = 7)
d2 <- data.frame(x = x, y = 10 + x - 0.8 * pmax(x - 40, 0) + 2.8 * pmax(x - 110, 0) + rnorm(length(x), sd = 2))
write_fixture("seg2", d2)
report_segmented("seg2", d2, c(50, 100))

# 3) per-step means with sample counts as weights (BY_SAMPLE_COUNT): breakpoint at 60.
set.seed(3)
x <- seq(10, 120, by = 10)
w <- c(5, 8, 12, 20, 20, 30, 30, 30, 25, 20, 10, 6)
d3 <- data.frame(x = x, y = 2 + 0.1 * x + 0.4 * pmax(x - 60, 0) + rnorm(length(x), sd = 1.5 / sqrt(w)), w = w)
write_fixture("weighted", d3)
report_segmented("weighted", d3, 70)

# 3b) breaks that are no knee (KneeRule): one not significant with an interval wider than the loads (a run of
#     12..192 users, as the field trial's "knee at 96, 95 % interval -89.6..281.6"); one significant whose interval
#     ends beyond the last step; one where growth slows (memory saturating), significant and well placed.
set.seed(29)
x <- c(12, 24, 48, 72, 96, 120, 144, 168, 192)
d4 <- data.frame(x = x, y = 0.05 + 0.004 * x + 0.004 * pmax(x - 100, 0) + rnorm(length(x), sd = 0.05))
write_fixture("noknee", d4)
report_segmented("noknee", d4, 96)
set.seed(49)
x <- seq(10, 150, by = 10)
d5 <- data.frame(x = x, y = 5 + 0.5 * x + 0.5 * pmax(x - 135, 0) + rnorm(length(x), sd = 3))
write_fixture("edge", d5)
report_segmented("edge", d5, 135)
set.seed(30)
x <- seq(10, 150, by = 10)
d6 <- data.frame(x = x, y = 100 + 2 * x - 1.5 * pmax(x - 70, 0) + rnorm(length(x), sd = 2))
write_fixture("saturating", d6)
report_segmented("saturating", d6, 70)

# 4) seeds: pre-knee lines and prediction intervals at the next step.
lk <- data.frame(x = c(50, 200, 800), y = c(0.42, 1.55, 2.42))
m <- lm(y ~ x, data = lk)
out("livekit.base", coef(m)[1]); out("livekit.slope", coef(m)[2])
out("livekit.base.se", summary(m)$coefficients[1, 2]); out("livekit.slope.se", summary(m)$coefficients[2, 2])
p <- predict(m, data.frame(x = 1050), interval = "prediction", level = 0.95)
out("livekit.predict1050", p[1]); out("livekit.predict1050.upper95", p[3])
v1 <- data.frame(x = c(10, 15, 17, 18), y = c(26, 45, 47, 45))
m <- lm(y ~ x, data = v1)
out("vcpu1.base", coef(m)[1]); out("vcpu1.slope", coef(m)[2])
p <- predict(m, data.frame(x = 19), interval = "prediction", level = 0.95)
out("vcpu1.predict19", p[1]); out("vcpu1.predict19.lower95", p[2]); out("vcpu1.predict19.upper95", p[3])

# 5) (was USL, removed with analysis/usl: see usl-vs-segmented.R and analysis/README.md)

# 6) Otava's t-test at a known split: Student (pooled) on population standard deviations (numpy std, ddof 0).
left <- c(100, 102, 99, 101, 100, 98, 101, 103, 100, 99)
right <- c(90, 91, 89, 92, 90, 88, 91, 90, 89, 91)
sdp <- function(v) sqrt(mean((v - mean(v))^2))
n1 <- length(left); n2 <- length(right)
sp <- sqrt(((n1 - 1) * sdp(left)^2 + (n2 - 1) * sdp(right)^2) / (n1 + n2 - 2))
tt <- (mean(left) - mean(right)) / (sp * sqrt(1 / n1 + 1 / n2))
out("otava.t", tt); out("otava.p", 2 * pt(-abs(tt), df = n1 + n2 - 2))
