# USL against caplab's segmented/linear fit on the throughput-vs-load tables of the field reports (shared/seeds).
# Run: cd analysis/src/test/resources/r && Rscript usl-vs-segmented.R
# Throughput = what the server delivered per step; x = the run's load expression (what caplab fits against).
suppressPackageStartupMessages(library(segmented))
usl <- function(x, y) {
  # USL X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) (Gunther 2007, eq. 4.31), nls as caplab's UslModel
  tryCatch(nls(y ~ l * x / (1 + s * (x - 1) + k * x * (x - 1)), start = list(l = max(y / x), s = 0.01, k = 1e-4),
               algorithm = "port", control = nls.control(maxiter = 1000, warnOnly = FALSE)), error = function(e) NULL)
}
usl_exact <- function(x, y) {
  # three points, three parameters: the USL curve through them (no residual dof), for the held-out forecast
  f <- function(p) { p <- c(exp(p[1]), p[2], p[3]); p[1] * x / (1 + p[2] * (x - 1) + p[3] * x * (x - 1)) - y }
  best <- NULL
  for (s0 in c(-0.5, -0.1, 0, 0.1, 0.5)) for (k0 in c(-1e-3, 0, 1e-5, 1e-3)) {
    o <- optim(c(log(max(y / x)), s0, k0), function(p) sum(f(p)^2), control = list(maxit = 50000, reltol = 1e-16))
    if (is.null(best) || o$value < best$value) best <- o
  }
  o <- best
  p <- c(exp(o$par[1]), o$par[2], o$par[3])
  list(p = p, rss = o$value, predict = function(n) p[1] * n / (1 + p[2] * (n - 1) + p[3] * n * (n - 1)))
}
report <- function(name, x, y) {
  n <- length(x)
  cat(sprintf("\n== %s: %d steps, x = %s, y = %s\n", name, n, paste(x, collapse = ","), paste(y, collapse = ",")))
  lin <- lm(y ~ x)
  cat(sprintf("linear (caplab's model below 6 steps): RSS %.2f  AIC %.2f  BIC %.2f  residual dof %d\n",
              sum(resid(lin)^2), AIC(lin), BIC(lin), df.residual(lin)))
  if (n >= 6) {
    sg <- tryCatch(segmented(lin, seg.Z = ~x), error = function(e) NULL)
    if (!is.null(sg)) cat(sprintf("segmented-1: RSS %.2f  AIC %.2f  BIC %.2f  knee %.1f\n",
                                  sum(resid(sg)^2), AIC(sg), BIC(sg), sg$psi[1, 2]))
  } else {
    cat(sprintf("segmented-1: not fitted (caplab needs 6 steps; %d steps leave %d residual dof for 4 parameters)\n",
                n, n - 4))
  }
  if (n < 4) {
    cat(sprintf("USL: not fitted (3 parameters on %d points leave %d residual dof; UslModel needs 4 points)\n", n, n - 3))
    return(invisible())
  }
  u <- usl(x, y)
  if (is.null(u)) { cat("USL: nls did not converge\n"); return(invisible()) }
  cf <- coef(u)
  cat(sprintf("USL: RSS %.2f  AIC %.2f  BIC %.2f  residual dof %d  lambda %.4g sigma %.4g kappa %.4g%s\n",
              sum(resid(u)^2), AIC(u), BIC(u), df.residual(u), cf["l"], cf["s"], cf["k"],
              ifelse(cf["s"] < 0, "  (sigma < 0: outside USL's contention range [0, 1])", "")))
  if (cf["k"] > 0 && cf["s"] < 1) cat(sprintf("USL peak N* = sqrt((1-sigma)/kappa) = %.0f\n", sqrt((1 - cf["s"]) / cf["k"])))
  # held-out: each model fitted on the first n-1 steps forecasts the last (the step a capacity test is run to find)
  xs <- x[-n]; ys <- y[-n]
  l3 <- lm(ys ~ xs)
  pl <- predict(l3, newdata = data.frame(xs = x[n]))
  ue <- usl_exact(xs, ys)
  cat(sprintf("forecast of the last step (x=%g, measured %.1f) from the steps before: linear %.1f (error %+.1f), USL %.1f (error %+.1f; USL through the %d earlier steps: RSS %.2g, sigma %.3g, kappa %.3g)\n",
              x[n], y[n], pl, pl - y[n], ue$predict(x[n]), ue$predict(x[n]) - y[n], n - 1, ue$rss, ue$p[2], ue$p[3]))
}
# 000 LiveKit (Docker VM, 10 vCPU): subscribers' total received traffic per step; x = successful subscriptions
report("000 LiveKit, Mbit/s vs subscriptions", c(50, 200, 800, 1050), c(7.0, 45.3, 176.1, 192.3))
report("000 LiveKit, Mbit/s vs participants", c(10, 20, 40, 60), c(7.0, 45.3, 176.1, 192.3))
# 003 Jitsi / Bedrud: server egress above baseline at 5, 10, 20 participants
report("003 Jitsi, egress Mbit/s vs participants", c(5, 10, 20), c(1.3, 3.4, 7.3))
report("003 Bedrud, egress Mbit/s vs participants", c(5, 10, 20), c(14.9, 33.0, 60.5))
# 001 (k6, 1000 VUs, 1.1 GB/s) and 004 (Locust, 400 users, ~320 req/s) give one load level each; 002 (EP19) gives no
# throughput per step: they cannot be fitted by any model.
