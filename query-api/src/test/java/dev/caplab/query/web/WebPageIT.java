package dev.caplab.query.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.query.testing.Ep19Runs;
import dev.caplab.query.testing.RawTrafficFigures;
import dev.caplab.query.testing.TrafficRun;
import dev.caplab.query.testing.TrafficRunFigures;
import dev.caplab.query.testing.TrafficRunStore;
import java.io.IOException;
import java.nio.file.Files;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import dev.caplab.access.SecurityHeadersFilter;
import org.junit.jupiter.api.AfterEach;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Drives the web page in real headless Chromium against the API over the embedded ClickHouse with the EP19 runs and
 * TrafficRun ({@link TrafficRunStore}): the charts must be drawn with data; the verdicts, bottleneck and late counts
 * ({@link TrafficRunFigures}) and the throughput each step shows with its unit ({@link RawTrafficFigures}) are the
 * test's arithmetic on the raw readings the production topology derived them from; screenshots go to
 * {@code target/screenshots/}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(TrafficRunStore.class)
class WebPageIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static WebDriver driver;
    private static Path profile;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        TrafficRunStore.properties(registry);
    }

    @BeforeAll
    static void startBrowser() throws IOException {
        assertThat(CHROMIUM).as("apt-get install -y chromium chromium-driver").exists();
        assertThat(CHROMEDRIVER).as("apt-get install -y chromium chromium-driver").exists();
        profile = Files.createTempDirectory("caplab-chromium");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run", "--window-size=1280,1400", "--user-data-dir=" + profile);
        options.setCapability("goog:loggingPrefs", java.util.Map.of(LogType.BROWSER, "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .build();
        driver = new ChromeDriver(service, options);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (driver != null) {
            driver.quit();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void pagesRenderRunsChartsComparisonAndPlan() throws Exception {
        driver.get(base() + "#/");
        ((JavascriptExecutor) driver).executeScript("localStorage.setItem('caplab.token', 'stale-token-0123456789');"
                + "sessionStorage.setItem('caplab.token', 'read-token-0123456789')");
        driver.navigate().refresh();
        awaitReady("runs");
        assertThat(((JavascriptExecutor) driver).executeScript("return localStorage.getItem('caplab.token')"))
                .as("the page keeps its token for the session only").isNull();
        HttpResponse<Void> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base())).build(),
                HttpResponse.BodyHandlers.discarding());
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(
                SecurityHeadersFilter.CONTENT_SECURITY_POLICY);
        assertThat(driver.findElements(By.cssSelector("main tbody tr"))).as("the three EP19 runs and TrafficRun")
                .hasSize(4);
        // each filter offers the values of every stored run (GET /api/v1/run-choices), here those the list shows
        List<String> providersListed = driver.findElements(By.cssSelector("main tbody tr td:nth-child(3)")).stream()
                .map(WebElement::getText).distinct().sorted().toList();
        assertThat(driver.findElements(By.cssSelector("#runs-provider option")))
                .extracting(o -> o.getDomAttribute("value")).containsExactlyElementsOf(providersListed);
        screenshot("runs");
        // filtered and sorted
        driver.get(base() + "#/?provider=lightnode&sort=runId&order=asc");
        awaitReady("runs");
        List<WebElement> listed = driver.findElements(By.cssSelector("main tbody tr"));
        assertThat(listed).hasSize(2);
        assertThat(listed.get(0).getText()).startsWith(Ep19Runs.LIGHTNODE_1);
        assertThat(driver.findElement(By.id("runs-page")).getText()).contains("runs 1–2");

        // a run whose verdicts, fits, conclusion and late counts the topology derived from TrafficRun's readings,
        // against the test's arithmetic on those readings: the last step before the first whose p95 or failed share
        // breaks a rule, the resource whose line through its medians reaches the margin of its ceiling first, and
        // the readings sent after the run ended
        List<TrafficRunFigures> steps = TrafficRunFigures.steps();
        TrafficRunFigures maxStable = TrafficRunFigures.maxStable(steps);
        TrafficRunFigures failed = TrafficRunFigures.firstFailing(steps);
        String bottleneck = TrafficRunFigures.bottleneck(steps, TrafficRunFigures.cpuKnee(steps));
        driver.get(base() + "#/?provider=" + TrafficRun.PROVIDER);
        awaitReady("runs");
        assertThat(driver.findElements(By.cssSelector("main tbody tr"))).singleElement()
                .extracting(WebElement::getText).asString().startsWith(TrafficRun.RUN_ID)
                .contains(whole(maxStable.x())).contains(whole(failed.x()))
                .contains(bottleneck + "@" + TrafficRun.NODE);
        driver.get(base() + "#/run/" + TrafficRun.RUN_ID);
        awaitReady("run");
        assertThat(driver.findElement(By.id("max-stable")).getText()).isEqualTo(whole(maxStable.x()));
        assertThat(driver.findElement(By.id("bottleneck")).getText()).isEqualTo(bottleneck);
        assertThat(driver.findElement(By.id("run-status")).getText()).isEqualTo("COMPLETED");
        assertThat(driver.findElement(By.id("bottleneck-why")).getText())
                .isEqualTo(bottleneck + " of " + TrafficRun.NODE + " is the bottleneck because its fitted line"
                        + " reaches the planning margin at the smallest load.");
        assertThat(driver.getTitle()).isNotEqualTo("owned");
        assertChartHasData("fit-chart", 0, steps.size());
        assertThat(driver.findElements(By.cssSelector("tr.fail")))
                .hasSize((int) steps.stream().filter(s -> !s.passed()).count());
        List<TrafficRun.LateReading> late = TrafficRun.lateReadings();
        int amendedStep = late.getFirst().step();
        assertThat(driver.findElements(By.cssSelector("tr.amended .amended-mark"))).extracting(WebElement::getText)
                .containsExactly("amended (" + TrafficRun.LATE_SAMPLES + " late samples)");
        assertThat(driver.findElement(By.cssSelector("tr.amended td")).getText())
                .isEqualTo(String.valueOf(amendedStep));
        assertThat(driver.findElement(By.id("late-samples")).getText())
                .isEqualTo(String.valueOf(TrafficRun.LATE_SAMPLES));
        assertThat(driver.findElement(By.id("beyond-lateness")).getText())
                .isEqualTo(String.valueOf(late.size() - TrafficRun.LATE_SAMPLES));
        screenshot("run-traffic-run");

        // a run without requests: its page has no throughput chart
        driver.get(base() + "#/run/" + Ep19Runs.LIGHTNODE_1);
        awaitReady("run");
        assertThat(driver.findElement(By.id("view")).getText()).doesNotContain("SMALLEST_SAFE_CAPACITY")
                .doesNotContain("( vCPU)").doesNotContain("(margin )").doesNotContain("Mbps");
        assertThat(driver.findElement(By.id("egress-ceiling")).getText()).startsWith("egress ceiling ")
                .endsWith("Mbit/s (declared as measured)");
        assertChartHasData("cpu-egress-chart", 0, 5);
        assertChartHasData("cpu-egress-chart", 1, 5);
        assertThat(driver.findElements(By.id("throughput-chart"))).as("no requests in this run: no chart").isEmpty();
        // nor an empty latency-over-time chart: one line says why
        assertThat(driver.findElement(By.id("live-latency-chart")).isDisplayed()).isFalse();
        assertThat(driver.findElement(By.id("live-latency-none")).getText())
                .startsWith("No p95 latency or errors over time: this run's samples hold no requests");
        screenshot("run-lightnode-1vcpu");
        ((JavascriptExecutor) driver).executeScript("document.getElementById('live-panel').scrollIntoView()");
        screenshot("run-lightnode-1vcpu-over-time");

        // a run with a load tool's traffic: what the topology derived from RawTraffic's readings, shown per step
        // with units, against the test's arithmetic on those readings
        driver.get(base() + "#/run/" + Ep19Runs.AWS_2);
        awaitReady("run");
        assertChartHasData("throughput-chart", 0, 9); // requests/s per step
        // the tool's window percentiles and no mean (no per-request samples, no since-start totals): no mean line
        assertChartHasData("throughput-chart", 2, 9); // p95 ms per step
        List<RawTrafficFigures> expected = RawTrafficFigures.of(Ep19Runs.AWS_2_STARTED);
        List<String> columns = driver.findElements(By.cssSelector("#throughput-steps th")).stream()
                .map(WebElement::getText).toList();
        assertThat(columns).contains("requests/s", "errors %", "p50 ms", "p95 ms", "p99 ms", "generator CPU %");
        List<WebElement> rows = driver.findElements(By.cssSelector("#throughput-steps tbody tr"));
        assertThat(rows).hasSize(expected.size());
        for (int i = 0; i < rows.size(); i++) {
            List<String> cells = rows.get(i).findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
            RawTrafficFigures e = expected.get(i);
            String what = "step " + i + " shows " + cells + ", expected " + e;
            // shown to four significant digits (whole from 1,000 on): the tolerances add that rounding to the API's
            assertThat(shown(cells, columns, "requests/s")).as(what)
                    .isCloseTo(e.requestsPerSecond(), within(0.01 * e.requestsPerSecond() + 0.5));
            assertThat(shown(cells, columns, "errors %")).as(what)
                    .isCloseTo(100 * e.errorRatio(), within(1.0 * e.errorRatio() + 0.005));
            assertThat(shown(cells, columns, "p50 ms")).as(what).isCloseTo(e.p50Ms(), within(0.55));
            assertThat(shown(cells, columns, "p95 ms")).as(what).isCloseTo(e.p95Ms(), within(1.05));
            assertThat(shown(cells, columns, "p99 ms")).as(what).isCloseTo(e.p99Ms(), within(1.55));
            assertThat(shown(cells, columns, "generator CPU %")).as(what)
                    .isCloseTo(e.generatorCpuPercent(), within(0.05));
        }
        double rise = RawTrafficFigures.lastRisingX(expected);
        String limit = driver.findElement(By.id("throughput-limit")).getText();
        assertThat(limit).startsWith("x=");
        assertThat(Double.parseDouble(limit.substring(2).replace(",", ""))).as(limit)
                .isCloseTo(rise, within(0.1 * rise));
        assertThat(driver.findElements(By.cssSelector(".run-warning"))).extracting(WebElement::getText)
                .singleElement().asString().contains("the load generator, not the server, was the limit");
        Object sloLine = ((JavascriptExecutor) driver).executeScript(
                "return echarts.getInstanceByDom(document.getElementById('throughput-chart')).getOption().series"
                        + ".filter(s => s.name.startsWith('SLO p95 ')).map(s => s.data[0][1])[0];");
        assertThat(((Number) sloLine).doubleValue()).as("the run's declared p95 ≤ 200 ms rule drawn as a line")
                .isEqualTo(Ep19Runs.SLO_RULES.getFirst().getThreshold());
        screenshot("run-aws-2vcpu-throughput");

        // LightNode 2 vCPU tested up to 75 viewers: its CPU line reaches 60 % of 2 cores at (1.2 − 0.15)/0.0097 =
        // 108.2 viewers, past that, and is marked; its egress line's 60/1.9 = 31.58 lies within and is not
        driver.get(base() + "#/run/" + Ep19Runs.LIGHTNODE_2);
        awaitReady("run");
        assertThat(driver.findElements(By.cssSelector(".beyond-tested"))).extracting(WebElement::getText)
                .contains("≈ 108.2 (beyond the tested 75)").noneMatch(t -> t.contains("31.58"));
        assertThat(driver.findElements(By.cssSelector(".beyond-tested-note"))).extracting(WebElement::getText)
                .contains("≈ marks a load beyond the highest load the run tested: the straight line through its steps"
                        + " extrapolated, not a load the system was seen to hold.");
        ((JavascriptExecutor) driver).executeScript("document.querySelector('.beyond-tested').scrollIntoView()");
        screenshot("run-lightnode-2vcpu-beyond-tested");

        driver.get(base() + "#/compare?groupBy=provider");
        awaitReady("compare");
        // each run's bottleneck safe x (31.58 of 75, 159.1 of 300, 18 of 19 tested) lies within its tested loads
        assertThat(driver.findElements(By.cssSelector(".beyond-tested"))).isEmpty();
        List<WebElement> warnings = driver.findElements(By.cssSelector(".warning"));
        assertThat(warnings).extracting(WebElement::getText)
                .anySatisfy(w -> assertThat(w).contains("must not be extrapolated"));
        assertChartHasData("compare-chart", 0, 3);
        // the system choice: EP19's system, chosen by default as the most recent run's, or every system separately
        assertThat(driver.findElement(By.id("compare-systems")).getText())
                .contains("mmx-standalone").contains("each system separately");
        screenshot("compare");

        driver.get(base() + "#/plan");
        // it opens planned: at the max stable load of mmx-standalone's newest run, LightNode 1 vCPU (18 viewers)
        awaitReady("plan-result");
        assertThat(driver.findElement(By.id("plan-default")).getText()).isEqualTo("Planned at viewers = 18, the max"
                + " stable load of " + Ep19Runs.LIGHTNODE_1 + ", the newest run of mmx-standalone that has one. Enter"
                + " another load and press Plan to plan for it.");
        assertThat(driver.findElement(By.name("load")).getDomProperty("value")).isEqualTo("18");
        assertThat(driver.findElement(By.cssSelector("#plan-result h2")).getText()).startsWith("planned load: load 18 ");
        // every tier holds 18 within its margin: LightNode 2 by (0.6·100 − 0)/1.9 = 31.58 Mbit/s of egress, AWS by
        // (0.6·2 GiB − 0.4 GiB)/5.4 MB = 159.1 MB of memory, LightNode 1 by its last stable step, 18; on LightNode 2
        // and AWS the line's safe load lies within what they tested (75, 300), so nothing is marked
        assertThat(driver.findElements(By.cssSelector("#plan-result .badge"))).extracting(e -> e.getDomAttribute("data-fit"))
                .containsExactly("FITTING", "FITTING", "FITTING");
        screenshot("plan-default");
        // the address may name the system: TrafficRun's opens at its own max stable load (the test's arithmetic)
        navigate("#/plan?sut=" + java.net.URLEncoder.encode(TrafficRun.SUT, java.nio.charset.StandardCharsets.UTF_8));
        awaitReady("plan-result");
        assertThat(driver.findElement(By.id("plan-default-load")).getText())
                .isEqualTo(TrafficRun.LOAD + " = " + whole(maxStable.x()));
        assertThat(driver.getTitle()).isNotEqualTo("owned");
        navigate("#/plan");
        awaitReady("plan-result");
        // mmx-standalone's runs are fitted against viewers: the load is asked in viewers, no room profile offered
        assertThat(driver.findElement(By.id("plan-load-name")).getText()).isEqualTo("load (viewers)");
        assertThat(driver.findElement(By.id("plan-rooms")).isDisplayed()).isFalse();
        driver.findElement(By.name("load")).clear();
        driver.findElement(By.name("load")).sendKeys("40");
        driver.findElement(By.cssSelector("#plan-form button")).click();
        awaitReady("plan-result");
        assertThat(driver.findElements(By.cssSelector("#plan-result .badge"))).extracting(e -> e.getDomAttribute("data-fit"))
                .containsExactlyInAnyOrder("TIGHT", "FITTING", "UNREACHABLE");
        // the plan says it in words, never as the enum's name
        assertThat(driver.findElements(By.cssSelector("#plan-result .badge"))).extracting(WebElement::getText)
                .contains("fits only past the planning margin, under the full ceilings");
        screenshot("plan");

        // a plan that cannot run names the field to choose: before asking (no tier), and from the API's refusal
        navigate("#/plan?again");
        awaitReady("plan-result");
        driver.findElements(By.cssSelector("#plan-form input[name=tier]")).forEach(WebElement::click);
        driver.findElement(By.cssSelector("#plan-form button")).click();
        awaitReady("plan-missing");
        assertThat(driver.findElement(By.id("hint-tiers")).getText()).isEqualTo("choose at least one tier to place"
                + " the load on");
        assertThat(driver.findElement(By.cssSelector("[data-field=tiers]")).getDomAttribute("class")).contains("needs");
        screenshot("plan-field-hint");
        driver.findElements(By.cssSelector("#plan-form input[name=tier]")).getFirst().click();
        driver.findElement(By.name("load")).clear();
        driver.findElement(By.name("load")).sendKeys("40");
        driver.findElement(By.name("margin")).clear();
        driver.findElement(By.name("margin")).sendKeys("2");
        driver.findElement(By.cssSelector("#plan-form button")).click();
        awaitReady("plan-error");
        assertThat(driver.findElements(By.id("hint-tiers"))).as("the tiers hint is gone once a tier is chosen")
                .isEmpty();
        assertThat(driver.findElement(By.id("hint-margin")).getText()).contains("margin").contains("(0, 1]");
    }

    /** The number a table cell shows under {@code column}, its thousands separators removed. */
    private static double shown(List<String> cells, List<String> columns, String column) {
        return Double.parseDouble(cells.get(columns.indexOf(column)).replace(",", ""));
    }

    @Test
    void theRunPageOffersItsDeleteOnlyToATokenWithTheWriteScopeAndAsksFirst() throws Exception {
        driver.get(base() + "#/run/" + Ep19Runs.LIGHTNODE_1);
        ((JavascriptExecutor) driver).executeScript("sessionStorage.setItem('caplab.token', 'read-token-0123456789')");
        driver.navigate().refresh();
        awaitReady("run");
        assertThat(driver.findElements(By.id("delete-run"))).as("a read token is offered no delete").isEmpty();

        ((JavascriptExecutor) driver).executeScript("sessionStorage.setItem('caplab.token', 'admin-token-0123456789')");
        driver.navigate().refresh();
        awaitReady("run");
        WebElement delete = driver.findElement(By.id("delete-run"));
        assertThat(delete.getText()).isEqualTo("Delete this run");
        screenshot("run-delete");
        delete.click();
        Alert confirm = new WebDriverWait(driver, Duration.ofSeconds(5)).until(ExpectedConditions.alertIsPresent());
        assertThat(confirm.getText()).isEqualTo("Delete run " + Ep19Runs.LIGHTNODE_1
                + "? It leaves every list, comparison, history, plan and report.");
        confirm.dismiss();
        // dismissed: the click handler returned before any request, so the page is as it was
        assertThat(driver.findElement(By.id("view")).getDomAttribute("data-ready")).isEqualTo("run");
        assertThat(driver.findElements(By.id("deleted-notice"))).isEmpty();
    }

    /** A whole load as the page writes it (TrafficRun's loads are whole users). */
    private static String whole(double x) {
        assertThat(x).isEqualTo(Math.rint(x));
        return String.valueOf((long) x);
    }

    private String base() {
        return "http://127.0.0.1:" + port + "/";
    }

    @AfterEach
    void noContentSecurityPolicyViolations() {
        List<String> violations = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage).filter(m -> m.contains("Content Security Policy")).toList();
        assertThat(violations).as("the page works under its own Content-Security-Policy").isEmpty();
    }

    /**
     * Goes to {@code hash} of the page already open, its ready mark cleared first: a view that ends in the same state
     * as the one before is then awaited, not taken for it.
     */
    private void navigate(String hash) {
        ((JavascriptExecutor) driver).executeScript("delete document.getElementById('view').dataset.ready");
        driver.get(base() + hash);
    }

    private void awaitReady(String state) {
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> {
            String ready = d.findElement(By.id("view")).getDomAttribute("data-ready");
            if ("error".equals(ready)) {
                throw new AssertionError("page shows an error: " + d.findElement(By.id("view")).getText());
            }
            return state.equals(ready);
        });
    }

    /** The chart's canvas exists with a size, and its series holds at least {@code minPoints} data points. */
    private void assertChartHasData(String id, int series, int minPoints) {
        Object points = ((JavascriptExecutor) driver).executeScript(
                "const c = echarts.getInstanceByDom(document.getElementById(arguments[0]));"
                        + "return c ? c.getOption().series[arguments[1]].data.length : -1;", id, series);
        assertThat(((Number) points).intValue()).as("points in series %d of %s", series, id)
                .isGreaterThanOrEqualTo(minPoints);
        WebElement canvas = driver.findElement(By.cssSelector("#" + id + " canvas"));
        assertThat(canvas.getSize().getWidth()).isGreaterThan(300);
        assertThat(canvas.getSize().getHeight()).isGreaterThan(200);
    }

    private void screenshot(String name) throws IOException {
        byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }
}
