package dev.caplab.query.history;

import dev.caplab.schema.event.RunConclusion;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.testing.StoredVerdicts;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.StoredConclusions;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.query.testing.StoredFits;
import dev.caplab.schema.event.Segment;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.StepRow;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The History page in real headless Chromium over the embedded ClickHouse: six stored runs of {@code shop} (one
 * cohort), the last three of version 2.0 with half the knee, the slope doubled and half the max stable load, and a
 * {@code search} run between them. Each series is drawn with its six runs, the change marked at shop-3 and version
 * 2.0 labelled; a cohort spanning both systems shows the API's 400 in words. Screenshot in
 * {@code target/screenshots/history.png}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(HistoryPageIT.Store.class)
class HistoryPageIT {

    private static final Instant T0 = Instant.parse("2026-09-01T08:00:00Z");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static TestDatabase database;
    private static WebDriver driver;
    private static Path profile;

    @LocalServerPort
    int port;

    static synchronized TestDatabase database() {
        if (database == null) {
            database = EmbeddedClickHouse.shared().freshDatabase("history_page");
            writeRuns(database.dataSource());
        }
        return database;
    }

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry, HistoryPageIT::database);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Store {
        @Bean
        DataSource dataSource() {
            return database().dataSource();
        }
    }

    @BeforeAll
    static void startBrowser() throws IOException {
        assertThat(CHROMIUM).as("apt-get install -y chromium chromium-driver").exists();
        assertThat(CHROMEDRIVER).as("apt-get install -y chromium chromium-driver").exists();
        profile = Files.createTempDirectory("caplab-chromium");
        driver = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build(),
                new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless", "--no-sandbox",
                        "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--window-size=1280,1600",
                        "--user-data-dir=" + profile));
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
    void eachSeriesIsDrawnWithTheChangeAtTheFirstRunOfVersion2() throws IOException {
        driver.get(base() + "#/");
        ((JavascriptExecutor) driver).executeScript("sessionStorage.setItem('caplab.token', 'read-token-0123456789')");
        driver.get(base() + "#/history?sut=shop");
        driver.navigate().refresh();
        awaitReady("history");
        for (int i = 0; i < 3; i++) {
            String id = "history-chart-" + i;
            assertThat(script("return echarts.getInstanceByDom(document.getElementById(arguments[0]))"
                    + ".getOption().series[0].data.length", id)).as(id).isEqualTo(6L);
            assertThat(script("return echarts.getInstanceByDom(document.getElementById(arguments[0]))"
                    + ".getOption().series[0].markLine.data.length", id)).as(id + " change marks").isEqualTo(1L);
            // versions labelled where they start: 1.0 at the first run, 2.0 at shop-3
            assertThat(script("return echarts.getInstanceByDom(document.getElementById(arguments[0])).getOption()"
                    + ".series[0].data.filter(d => d.label.show).map(d => d.runId + ' ' + d.sutVersion).join(',')", id))
                    .isEqualTo("shop-0 1.0,shop-3 2.0");
        }
        List<WebElement> rows = driver.findElements(By.cssSelector("#history-result tbody tr"));
        assertThat(rows).hasSize(3).allSatisfy(r -> assertThat(r.getText()).contains("shop-3").contains("2.0"));
        assertThat(driver.findElement(By.cssSelector("#history-result .scope")).getText())
                .contains("6 runs of shop on tier 2vcpu-4gb with k6 under load users").contains("cpu.cores");
        screenshot("history");

        // with nothing chosen, the page opens on the system with the most runs (shop: 6, search fewer), in its
        // largest cohort; a form without a system says to choose one
        driver.get(base() + "#/history");
        awaitReady("history");
        assertThat(driver.findElement(By.cssSelector("#history-result .scope")).getText())
                .contains("6 runs of shop on tier 2vcpu-4gb with k6 under load users");
        script("document.querySelector('#history-form select[name=sut]').value = ''");
        driver.findElement(By.cssSelector("#history-form button")).click();
        assertThat(driver.findElement(By.id("history-missing")).getText()).contains("Choose a system");

        driver.get(base() + "#/history?tier=2vcpu-4gb");
        awaitReady("history-error");
        assertThat(driver.findElement(By.cssSelector("#history-result .error")).getText())
                .contains("span sut [search, shop]");
    }

    private Object script(String js, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(js, args);
    }

    private String base() {
        return "http://127.0.0.1:" + port + "/";
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

    private void screenshot(String name) throws IOException {
        Files.write(SCREENSHOTS.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    }

    /** shop-0..5 (2.0 from shop-3: slope 0.10 instead of 0.05, knee 6 instead of 12, max stable 6 instead of 14). */
    private static void writeRuns(DataSource ds) {
        List<RunRow> runs = new ArrayList<>();
        List<StepRow> steps = new ArrayList<>();
        List<StepVerdict> verdicts = new ArrayList<>();
        List<CapacityFit> fits = new ArrayList<>();
        List<RunConclusion> conclusions = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            boolean v2 = i >= 3;
            double slope = (v2 ? 0.10 : 0.05) * (1 + 0.01 * (i % 3 - 1));
            double knee = v2 ? 6 : 12;
            add("shop-" + i, "shop", v2 ? "2.0" : "1.0", i, slope, knee, v2 ? 8 : 16, runs, steps, verdicts, fits, conclusions);
        }
        add("search-0", "search", "1.0", 3.5, 0.2, 4, 6, runs, steps, verdicts, fits, conclusions);
        new RunRepository(ds).insertBatch(runs, "history-runs");
        new StepRepository(ds).insertBatch(steps, "history-steps");
        new StepVerdictRepository(ds).insertBatch(verdicts, "history-verdicts");
        new CapacityFitRepository(ds).insertBatch(fits, "history-fits");
        new RunConclusionRepository(ds).insertBatch(conclusions, "history-conclusions");
    }

    private static void add(String runId, String sut, String version, double day, double slope, double knee,
                            double firstFailingUsers, List<RunRow> runs, List<StepRow> steps,
                            List<StepVerdict> verdicts, List<CapacityFit> fits,
                            List<RunConclusion> conclusions) {
        Instant start = T0.plusSeconds((long) (86_400 * day));
        runs.add(new RunRow(runId, start, sut, version, null, "lab", "local", "vm", "2vcpu-4gb", 2.0, 4L << 30, 1000.0,
                null, "k6", Map.of(), List.of(), List.of(), "users", "DECLARED", start.plusSeconds(3_600), "COMPLETED", null, 1));
        for (int s = 0; s < 10; s++) {
            double users = 2.0 * (s + 1);
            Map<String, Double> load = Map.of("users", users);
            Instant stepStart = start.plusSeconds(60L * s);
            boolean pass = users < firstFailingUsers;
            steps.add(new StepRow(runId, s, load, stepStart, 0L, stepStart.plusSeconds(60), 1));
            verdicts.add(StoredVerdicts.verdict(runId, s, load, users, pass, pass ? null : "cpu.cores").build());
        }
        double atKnee = 0.1 + slope * knee;
        fits.add(StoredFits.fit(runId, "host", "cpu.cores", "segmented-1", "1", "users", 10,
                List.of(StoredFits.segment(2.0, knee, 0.1, slope, 0.001),
                        StoredFits.segment(knee, 20.0, atKnee - 3 * slope * knee, 3 * slope, 0.002)),
                List.of(StoredFits.breakpoint(knee, 0.2, knee - 0.4, knee + 0.4)),
                0.001, 0.99, false, null, 2.0, 0.6, knee, true, start.plusSeconds(3_600), 1));
        // what streams concluded: steps pass below firstFailingUsers (x = 2, 4, ..., 20), cpu binds
        int failedStep = (int) Math.ceil(firstFailingUsers / 2.0) - 1;
        var cpu = StoredConclusions.estimate("host", "cpu.cores", 0.1, slope, 0.001, 10, 2.0, knee, 2.0, null);
        conclusions.add(StoredConclusions.row(runId, failedStep > 0 ? 2.0 * failedStep : null,
                failedStep > 0 ? failedStep - 1 : null, failedStep < 10 ? 2.0 * (failedStep + 1) : null,
                failedStep < 10 ? failedStep : null, 10, cpu, List.of(cpu), start.plusSeconds(3_600)));
    }
}
