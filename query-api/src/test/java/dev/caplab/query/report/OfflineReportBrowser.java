package dev.caplab.query.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.query.testing.TrafficRun;
import dev.caplab.query.testing.TrafficRunFigures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Chromium with its network cut off (every connection goes to a dead proxy, every host name fails to
 * resolve) opening saved reports from {@code file://} URLs, and reading what they show. The DevTools performance log
 * records every request the page makes: only the file itself may appear there.
 */
final class OfflineReportBrowser implements AutoCloseable {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final ChromeDriver driver;
    private final Path profile;

    private OfflineReportBrowser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    static OfflineReportBrowser start() throws IOException {
        assertThat(CHROMIUM).as("apt-get install -y chromium chromium-driver").exists();
        assertThat(CHROMEDRIVER).as("apt-get install -y chromium chromium-driver").exists();
        Path profile = Files.createTempDirectory("caplab-report-chromium");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.PERFORMANCE, Level.ALL);
        logs.enable(LogType.BROWSER, Level.ALL);
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run", "--window-size=1600,1400", "--user-data-dir=" + profile,
                        // network off: a proxy nobody listens on, loopback included, and no name resolves
                        "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                        "--host-resolver-rules=MAP * ~NOTFOUND");
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .build();
        Files.createDirectories(SCREENSHOTS);
        return new OfflineReportBrowser(new ChromeDriver(service, options), profile);
    }

    /**
     * The TrafficRun report against the test's arithmetic on the run's readings ({@link TrafficRunFigures}): each
     * step's verdict, the CPU knee within {@code kneeTolerance} of where the readings' slope changes with its printed
     * interval holding that, one chart point per step (CPU median within 1 %, requests/s within 1 %, p95 between the
     * readings' order statistics), the errors column; then that it fetched nothing and its CSP blocks a fetch.
     */
    void checkTrafficRun(Path file, String liveUrl, List<TrafficRunFigures> expected, double kneeX,
                         double kneeTolerance) throws IOException {
        open(file);
        WebElement run = driver.findElement(By.cssSelector("section.run[data-run='" + TrafficRun.RUN_ID + "']"));
        assertThat(run.findElement(By.cssSelector(".sut")).getText()).isEqualTo(TrafficRun.SUT);
        assertThat(driver.getTitle()).isNotEqualTo("owned").contains(TrafficRun.RUN_ID);
        List<WebElement> steps = run.findElements(By.cssSelector("table.steps tbody tr"));
        assertThat(steps).hasSize(expected.size());
        for (int i = 0; i < steps.size(); i++) {
            assertThat(steps.get(i).findElement(By.cssSelector(".verdict")).getText()).as("step %d verdict", i)
                    .isEqualTo(expected.get(i).passed() ? "pass" : "fail");
            assertThat(number(steps.get(i).findElement(By.cssSelector(".x")).getText())).isEqualTo(expected.get(i).x());
        }
        WebElement fit = run.findElement(By.cssSelector("table.fits tr.fit[data-metric='cpu.cores']"));
        assertThat(number(fit.findElement(By.cssSelector(".knee")).getText())).isCloseTo(kneeX, within(kneeTolerance));
        String[] interval = fit.findElement(By.cssSelector(".knee-interval")).getText().split(" – ");
        assertThat(number(interval[0])).as("95 %% interval %s", List.of(interval)).isLessThanOrEqualTo(kneeX);
        assertThat(number(interval[1])).as("95 %% interval %s", List.of(interval)).isGreaterThanOrEqualTo(kneeX);
        // charts: one point per step
        List<Double> cpu = pointValues(run, "resource:cpu.cores", "use");
        List<Double> rates = pointValues(run, "throughput", "rps");
        List<Double> p95 = pointValues(run, "latency", "p95");
        assertThat(cpu).hasSameSizeAs(expected);
        assertThat(rates).hasSameSizeAs(expected);
        assertThat(p95).hasSameSizeAs(expected);
        List<WebElement> traffic = run.findElements(By.cssSelector("table.traffic tbody tr"));
        assertThat(traffic).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            TrafficRunFigures e = expected.get(i);
            String what = "step " + i + ", expected " + e;
            assertThat(cpu.get(i)).as(what).isCloseTo(e.cpuCores(), within(0.01 * e.cpuCores()));
            assertThat(rates.get(i)).as(what).isCloseTo(e.requestsPerSecond(), within(0.01 * e.requestsPerSecond()));
            assertThat(p95.get(i)).as(what).isBetween(e.p95LowMs(), e.p95HighMs());
            String errors = traffic.get(i).findElements(By.tagName("td")).get(3).getText();
            assertThat(errors).as(what).endsWith(" %");
            assertThat(number(errors.substring(0, errors.length() - 2))).as(what)
                    .isCloseTo(100 * e.errorRatio(), within(0.05));
        }
        // mean, p50, p95 and p99: one point each per step
        assertThat(run.findElements(By.cssSelector("svg[data-chart='latency'] circle"))).hasSize(4 * expected.size());
        WebElement chart = run.findElement(By.cssSelector("svg[data-chart='throughput']"));
        assertThat(chart.getSize().getWidth()).isGreaterThan(200);
        screenshot("report-traffic-run");
        assertNothingFetched(file);
        assertCspBlocksFetch(liveUrl);
    }

    /** A side-by-side report: one column per run in order, with the expected number of step rows each. */
    void checkTwoRuns(Path file, List<String> runIds, List<Integer> stepCounts) throws IOException {
        open(file);
        List<WebElement> sections = driver.findElements(By.cssSelector(".runs > section.run"));
        assertThat(sections).extracting(s -> s.getDomAttribute("data-run")).containsExactlyElementsOf(runIds);
        for (int i = 0; i < sections.size(); i++) {
            assertThat(sections.get(i).findElements(By.cssSelector("table.steps tbody tr"))).hasSize(stepCounts.get(i));
        }
        assertThat(sections.get(0).getLocation().getX()).as("columns side by side")
                .isLessThan(sections.get(1).getLocation().getX());
        assertThat(sections.get(0).getLocation().getY()).isEqualTo(sections.get(1).getLocation().getY());
        screenshot("report-two-runs");
        assertNothingFetched(file);
    }

    /**
     * The run's throughput limit, rates and generator warning against figures from outside the report: the knee's
     * x lies within {@code kneeTolerance} of {@code kneeX} and its printed 95 % interval holds it; each step's
     * requests/s point is within 1 % of {@code rates}; the warning holds {@code warningPart}.
     */
    void checkThroughputLimit(Path file, String runId, String load, double kneeX, double kneeTolerance,
                              List<Double> rates, String warningPart) throws IOException {
        open(file);
        WebElement run = driver.findElement(By.cssSelector("section.run[data-run='" + runId + "']"));
        String limit = run.findElement(By.cssSelector(".throughput-limit .limit-x")).getText();
        assertThat(limit).startsWith(load + "=");
        assertThat(number(limit.substring(load.length() + 1))).as(limit).isCloseTo(kneeX, within(kneeTolerance));
        String[] interval = run.findElement(By.cssSelector(".throughput-limit .limit-interval")).getText()
                .split(" – ");
        assertThat(number(interval[0])).as("95 %% interval %s", List.of(interval)).isLessThanOrEqualTo(kneeX);
        assertThat(number(interval[1])).as("95 %% interval %s", List.of(interval)).isGreaterThanOrEqualTo(kneeX);
        assertThat(run.findElements(By.cssSelector("svg[data-chart='throughput'] rect.band.throughput-limit")))
                .hasSize(1);
        List<Double> shown = pointValues(run, "throughput", "rps");
        assertThat(shown).hasSameSizeAs(rates);
        for (int i = 0; i < rates.size(); i++) {
            assertThat(shown.get(i)).as("step %d requests/s", i).isCloseTo(rates.get(i), within(0.01 * rates.get(i)));
        }
        assertThat(run.findElements(By.cssSelector(".throughput-warning"))).extracting(WebElement::getText)
                .singleElement().asString().contains("the load generator, not the server, was the limit")
                .contains(warningPart);
        screenshot("report-throughput-limit");
        assertNothingFetched(file);
    }

    private void open(Path file) {
        driver.manage().logs().get(LogType.PERFORMANCE); // drain what earlier pages logged
        driver.get(file.toAbsolutePath().toUri().toString());
    }

    /** Every request the page made is the file itself (no stylesheet, script, font or image from anywhere). */
    private void assertNothingFetched(Path file) {
        List<String> requested = driver.manage().logs().get(LogType.PERFORMANCE).getAll().stream()
                .map(LogEntry::getMessage).filter(m -> m.contains("\"Network.requestWillBeSent\""))
                .map(m -> m.replaceAll(".*?\"request\":\\{.*?\"url\":\"([^\"]*)\".*", "$1"))
                // chrome:// (the browser's own start page) and data: URLs (Chromium's placeholder pixel; the report
                // holds none) are inside the browser, never the network
                .filter(url -> !url.startsWith("chrome://") && !url.startsWith("data:")).toList();
        assertThat(requested).as("requests the page made").isNotEmpty()
                .allSatisfy(url -> assertThat(url).isEqualTo(file.toAbsolutePath().toUri().toString()));
        Object resources = ((JavascriptExecutor) driver).executeScript(
                "return performance.getEntriesByType('resource').map(e => e.name);");
        assertThat((List<?>) resources).isEmpty();
    }

    /** A fetch attempted from the page (as an edited file might) is refused by its Content-Security-Policy. */
    private void assertCspBlocksFetch(String liveUrl) {
        Object outcome = ((JavascriptExecutor) driver).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                let violated = null;
                document.addEventListener('securitypolicyviolation', e => { violated = e.effectiveDirective; });
                fetch(arguments[0]).then(() => done('fetched'), () => setTimeout(() => done('refused:' + violated), 200));
                """, liveUrl);
        assertThat(outcome).isEqualTo("refused:connect-src");
    }

    private List<Double> pointValues(WebElement run, String chart, String series) {
        return run.findElements(By.cssSelector("svg[data-chart='" + chart + "'] circle.point." + series)).stream()
                .map(c -> Double.parseDouble(c.getDomAttribute("data-y"))).toList();
    }

    private static double number(String text) {
        return Double.parseDouble(text.trim().replace(",", ""));
    }

    private void screenshot(String name) throws IOException {
        Files.write(SCREENSHOTS.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

}
