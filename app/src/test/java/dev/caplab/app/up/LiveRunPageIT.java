package dev.caplab.app.up;

import static dev.caplab.app.up.StackHttp.uri;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The run page in real headless Chromium follows a run while {@code caplab up} receives it, without a reload: a
 * declared run with {@code p95(http_req_duration)<=500} gets 20 requests/s at 120 ms with 10 users in step 0 while
 * the page is open, then step 0 ends and step 1 brings 40 requests/s at 900 ms with 20 users, then the run ends. The
 * page must show, by itself, the current step and its load, the requests/s, p95 and sample rate of what was sent
 * (arithmetic here, over what this test sent), step 0's pass as it closes, step 1's failure and the run's end.
 */
class LiveRunPageIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String RUN = "live-page";
    /** Requests are spread over each second, 1000 / rate ms apart, so every point has its own time stamp. */
    private static final int STEP0_RATE = 20;
    private static final int STEP1_RATE = 40;
    private static final int STEP0_LATENCY_MS = 120;
    private static final int STEP1_LATENCY_MS = 900;
    private static final int STEP_SECONDS = 30;
    /** The egress the run declares at its start: the provider's figure, and the one measured on the machine. */
    private static final int NOMINAL_MBPS = 1000;
    private static final int MEASURED_MBPS = 103;

    @TempDir
    Path dataDir;

    @Test
    void theRunPageFollowsARunningRunWithoutAReload() throws Exception {
        // a multiple of the page's 5 s buckets, so every bucket holds whole seconds of one step
        long t0 = Math.floorDiv(Instant.now().minusSeconds(120).getEpochSecond(), 5) * 5;
        UpSettings settings = new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null, List.of());
        Path profile = Files.createTempDirectory("caplab-chromium");
        WebDriver driver = null;
        long began = System.nanoTime();
        try (EmbeddedStack stack = EmbeddedStack.start(settings, new PrintStream(new ByteArrayOutputStream()))) {
            post(stack, "/api/v1/runs", String.format(Locale.ROOT, "{\"runId\":\"%s\",\"sut\":\"live-sut\","
                    + "\"tool\":\"k6\",\"slo\":[\"p95(http_req_duration)<=500\"],\"loadExpression\":\"users\","
                    + "\"nominalEgressMbps\":%d,\"measuredEgressMbps\":%d,\"startedAt\":\"%s\"}", RUN, NOMINAL_MBPS,
                    MEASURED_MBPS, Instant.ofEpochSecond(t0)), 201);
            post(stack, "/api/v1/runs/" + RUN + "/steps", String.format(Locale.ROOT, "{\"index\":0,\"load\":"
                    + "{\"users\":10},\"warmupSeconds\":5,\"startedAt\":\"%s\"}", Instant.ofEpochSecond(t0)), 202);
            write(stack, t0, 0, 20, 10, STEP0_RATE, STEP0_LATENCY_MS);

            phase("stack up, step 0 sent", began);
            driver = browser(profile);
            driver.get("http://127.0.0.1:" + stack.httpPort() + "/#/run/" + RUN);
            WebDriver d = driver;
            awaitText(d, Map.of("live-step", "0", "live-load", "users = 10",
                    "live-rps", STEP0_RATE + " requests/s", "live-p95", STEP0_LATENCY_MS + " ms"));
            assertThat(d.findElement(By.id("run-status")).getText()).isEqualTo("RUNNING");
            assertThat(chip(d, 0)).endsWith("running");
            // before any step closed, the egress ceiling is what the run declared: its measured figure beats the
            // provider's nominal one
            assertThat(d.findElement(By.id("egress-ceiling")).getText())
                    .isEqualTo("egress ceiling " + MEASURED_MBPS + " Mbit/s (declared as measured)");
            assertThat(d.findElement(By.id("live-end")).getText()).as("a declared run ends by its run end")
                    .startsWith("Ends when its client sends the run end").contains("24 h after its last sample");
            // 20 latency points and 1 users point per second over the last 10 s of sample time
            assertThat(d.findElement(By.id("live-sample-rate")).getText()).isEqualTo((STEP0_RATE + 1) + "/s");
            phase("page shows step 0", began);
            screenshot(d, "live-run-step0");
            ((JavascriptExecutor) d).executeScript("window.caplabNotReloaded = true;");

            // step 0's last 10 s, its end, and step 1 up to 35 s past step 0's end: event time closes step 0
            write(stack, t0, 20, STEP_SECONDS, 10, STEP0_RATE, STEP0_LATENCY_MS);
            post(stack, "/api/v1/events", String.format(Locale.ROOT, "{\"runId\":\"%s\",\"events\":[{\"type\":"
                    + "\"step_ended\",\"index\":0,\"endedAt\":\"%s\"}]}", RUN,
                    Instant.ofEpochSecond(t0 + STEP_SECONDS)), 202);
            post(stack, "/api/v1/runs/" + RUN + "/steps", String.format(Locale.ROOT, "{\"index\":1,\"load\":"
                    + "{\"users\":20},\"warmupSeconds\":5,\"startedAt\":\"%s\"}",
                    Instant.ofEpochSecond(t0 + STEP_SECONDS)), 202);
            write(stack, t0, STEP_SECONDS, 2 * STEP_SECONDS + 5, 20, STEP1_RATE, STEP1_LATENCY_MS);

            awaitText(d, Map.of("live-step", "1", "live-load", "users = 20",
                    "live-rps", STEP1_RATE + " requests/s", "live-p95", STEP1_LATENCY_MS + " ms",
                    "live-errors", "0/s"));
            rerendering(d).until(x -> chip(x, 0).endsWith("pass"));
            assertThat(((JavascriptExecutor) d).executeScript("return window.caplabNotReloaded === true"))
                    .as("the page updated itself, never reloaded").isEqualTo(true);
            assertThat(d.findElement(By.id("live-sample-rate")).getText()).isEqualTo((STEP1_RATE + 1) + "/s");
            // the load series over time: 10 users through step 0's buckets, 20 from step 1's
            List<?> load = (List<?>) ((JavascriptExecutor) d).executeScript("return echarts.getInstanceByDom("
                    + "document.getElementById('live-traffic-chart')).getOption().series[0].data.map(p => p[1]);");
            assertThat(load).as("every bucket but the newest, still filling").hasSize((2 * STEP_SECONDS + 5) / 5 - 1);
            assertThat(load.subList(0, STEP_SECONDS / 5)).allSatisfy(v -> assertThat(((Number) v).doubleValue())
                    .isEqualTo(10.0));
            assertThat(load.subList(STEP_SECONDS / 5, load.size())).allSatisfy(v ->
                    assertThat(((Number) v).doubleValue()).isEqualTo(20.0));
            phase("page shows step 0 passed, step 1 running", began);
            screenshot(d, "live-run-step1");

            // the run ends, every sample sent: step 1 closes at once, and fails the p95 rule
            post(stack, "/api/v1/runs/" + RUN + "/end", String.format(Locale.ROOT, "{\"endedAt\":\"%s\","
                    + "\"allSamplesSent\":true}", Instant.ofEpochSecond(t0 + 2 * STEP_SECONDS + 5)), 202);
            rerendering(d).until(x -> "COMPLETED".equals(
                    x.findElement(By.id("run-status")).getText()) && chip(x, 1).endsWith("FAIL"));
            assertThat(d.findElement(By.id("live-end")).getText()).startsWith("Ended at");
            // the last step ran from its start to the run's end, which closed it
            assertThat(d.findElement(By.id("live-facts")).getText()).contains("last step 1 at users = 20 for "
                    + (2 * STEP_SECONDS + 5 - STEP_SECONDS) + " s");
            assertThat(((JavascriptExecutor) d).executeScript("return window.caplabNotReloaded === true")).isEqualTo(true);
            phase("page shows the run ended, step 1 failed", began);
            // the run holds only k6's readings: no empty resource charts, one sentence on what would fill them
            assertThat(d.findElements(By.id("cpu-egress-chart"))).isEmpty();
            assertThat(d.findElements(By.id("fit-chart"))).isEmpty();
            assertThat(d.findElement(By.id("no-resource-fit")).getText())
                    .contains("no CPU, memory or network of the system under test")
                    .contains("caplab sample --run " + RUN);
            screenshot(d, "live-run-ended");

            // deleting it from the page: the confirmation, then the run leaves the list
            d.findElement(By.id("delete-run")).click();
            Alert confirm = new WebDriverWait(d, Duration.ofSeconds(5)).until(ExpectedConditions.alertIsPresent());
            assertThat(confirm.getText()).contains("Delete run " + RUN + "?");
            confirm.accept();
            new WebDriverWait(d, Duration.ofSeconds(20)).until(x -> "deleted".equals(
                    x.findElement(By.id("view")).getDomAttribute("data-ready")));
            assertThat(d.findElement(By.id("deleted-notice")).getText()).startsWith("Run " + RUN + " was deleted at");
            screenshot(d, "live-run-deleted");
            awaitDeleted(stack);
        } finally {
            if (driver != null) {
                driver.quit();
            }
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * Seconds [from, to) after t0: {@code rate} {@code http_req_duration} points of {@code latencyMs} per second, 1000
     * / rate ms apart, and one {@code vus} point of {@code users} at each whole second, as k6's InfluxDB output.
     */
    private static void write(EmbeddedStack stack, long t0, int from, int to, int users, int rate, int latencyMs)
            throws Exception {
        StringBuilder body = new StringBuilder();
        for (int s = from; s < to; s++) {
            long ms = (t0 + s) * 1000;
            body.append("vus,source=k6 value=").append(users).append(' ').append(ms).append('\n');
            for (int k = 0; k < rate; k++) {
                body.append("http_req_duration,source=client value=").append(latencyMs).append(' ')
                        .append(ms + k * (1000 / rate)).append('\n');
            }
        }
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri(stack, "/write?db=" + RUN + "&precision=ms"))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
    }

    /** Waits (up to 20 s) until the run's detail answers 404 run-deleted and the runs list leaves it out. */
    private static void awaitDeleted(EmbeddedStack stack) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String seen = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> detail = HTTP.send(HttpRequest.newBuilder(uri(stack, "/api/v1/runs/" + RUN)).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> list = HTTP.send(HttpRequest.newBuilder(uri(stack, "/api/v1/runs")).build(),
                    HttpResponse.BodyHandlers.ofString());
            seen = detail.statusCode() + " " + detail.body();
            if (detail.statusCode() == 404 && detail.body().contains("run-deleted") && list.statusCode() == 200
                    && !list.body().contains("\"" + RUN + "\"")) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("run " + RUN + " still shown 20 s after the page deleted it: " + seen);
    }

    /** How long the test took to each phase, for the CI budget (the suite's timing, not an assertion). */
    private static void phase(String what, long began) {
        System.out.printf(Locale.ROOT, "LiveRunPageIT: %s after %.1f s%n", what, (System.nanoTime() - began) / 1e9);
    }

    private static void post(EmbeddedStack stack, String path, String json, int expected) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri(stack, path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(expected);
    }

    /** Waits (up to 20 s) until each element shows its text; else fails with what they showed. */
    private static void awaitText(WebDriver d, Map<String, String> expected) {
        try {
            rerendering(d).until(x -> {
                if ("error".equals(x.findElement(By.id("view")).getDomAttribute("data-ready"))) {
                    throw new AssertionError("page shows an error: " + x.findElement(By.id("view")).getText());
                }
                return expected.entrySet().stream().allMatch(e -> e.getValue().equals(text(x, e.getKey())));
            });
        } catch (org.openqa.selenium.TimeoutException e) {
            StringBuilder seen = new StringBuilder();
            expected.keySet().forEach(id -> seen.append(id).append('=').append(text(d, id)).append("; "));
            throw new AssertionError("expected " + expected + ", page shows " + seen, e);
        }
    }

    private static String text(WebDriver d, String id) {
        List<WebElement> found = d.findElements(By.id(id));
        return found.isEmpty() ? null : found.getFirst().getText().strip();
    }

    /** The live step chip of {@code step}, e.g. "0 · users = 10 · pass"; empty while absent. */
    /**
     * A 20 s wait on a page that redraws itself: an element found just before a step closes or the run ends may be
     * replaced before it is read, and is looked up again.
     */
    private static WebDriverWait rerendering(WebDriver d) {
        WebDriverWait wait = new WebDriverWait(d, Duration.ofSeconds(20));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    private static String chip(WebDriver d, int step) {
        List<WebElement> found = d.findElements(By.cssSelector(".live-step[data-step='" + step + "']"));
        return found.isEmpty() ? "" : found.getFirst().getText().replaceAll("\\s+", " ").strip();
    }

    private static WebDriver browser(Path profile) {
        assertThat(CHROMIUM).as("apt-get install -y chromium chromium-driver").exists();
        assertThat(CHROMEDRIVER).as("apt-get install -y chromium chromium-driver").exists();
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run", "--window-size=1280,1400", "--user-data-dir=" + profile);
        return new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build(),
                options);
    }

    private static void screenshot(WebDriver d, String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve(name + ".png"), ((TakesScreenshot) d).getScreenshotAs(OutputType.BYTES));
    }
}
