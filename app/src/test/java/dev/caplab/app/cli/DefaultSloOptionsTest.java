package dev.caplab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.app.CaplabCli;
import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.SloRule;
import dev.caplab.streams.verdict.DefaultRules;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --default-slo} ({@code up}, {@code streams}, {@code rebuild}): general rules, per-system rules replacing them, and clear refusals. */
class DefaultSloOptionsTest {

    @Test
    void generalAndPerSystemRules() {
        DefaultRules rules = DefaultSloOptions.parse(List.of("p95(http_req_duration)<=500",
                "sut=shop:rate(http_req_failed)<0.01", "sut=shop: p99(http_req_duration) <= 900"));
        SloRule general = rules.forSystem("search").orElseThrow().getFirst();
        assertThat(general.getMetric().toString()).isEqualTo("http_req_duration");
        assertThat(general.getStatistic().toString()).isEqualTo("p95");
        assertThat(general.getComparator()).isEqualTo(Comparator.LE);
        assertThat(general.getThreshold()).isEqualTo(500.0);
        List<SloRule> shop = rules.forSystem("shop").orElseThrow();
        assertThat(shop).extracting(r -> r.getStatistic().toString()).containsExactly("rate", "p99");
        assertThat(shop.getFirst().getThreshold()).isEqualTo(0.01);
        assertThat(DefaultSloOptions.parse(List.of()).forSystem("shop")).isEmpty();
        assertThat(DefaultSloOptions.parse(List.of("sut=shop:p95(x)<=1")).forSystem("search")).isEmpty();
    }

    @Test
    void aBadValueIsRefusedNamingIt() {
        assertThatThrownBy(() -> DefaultSloOptions.parse(List.of("sut=:p95(x)<=1")))
                .hasMessageContaining("--default-slo 'sut=:p95(x)<=1'").hasMessageContaining("sut=NAME:RULE");
        assertThatThrownBy(() -> DefaultSloOptions.parse(List.of("p95(x)<=fast")))
                .hasMessageContaining("--default-slo 'p95(x)<=fast'").hasMessageContaining("not a number");
    }

    @Test
    void everyCommandThatJudgesStepsTakesTheSameRules() {
        // a rebuild replays verdicts: with other rules than the live topology's they would differ
        for (String command : List.of("up", "streams", "rebuild")) {
            CommandLine.ParseResult parsed = CaplabCli.commandLine().parseArgs(command, "--default-slo",
                    "sut=shop:p99(http_req_duration)<=900");
            Object options = parsed.subcommand().commandSpec().mixins().get("defaultSlo").userObject();
            List<SloRule> shop = ((DefaultSloOptions) options).rules().forSystem("shop").orElseThrow();
            assertThat(shop).as(command).singleElement().satisfies(r -> {
                assertThat(r.getStatistic().toString()).isEqualTo("p99");
                assertThat(r.getThreshold()).isEqualTo(900.0);
            });
        }
    }
}
