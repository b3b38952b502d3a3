package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.SloRule;
import dev.caplab.streams.verdict.DefaultRules;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code caplab up --default-slo}: general rules, per-system rules replacing them, and clear refusals. */
class DefaultSloOptionTest {

    @Test
    void generalAndPerSystemRules() {
        DefaultRules rules = DefaultSloOption.parse(List.of("p95(http_req_duration)<=500",
                "sut=shop:rate(http_req_failed)<0.01", "sut=shop: p99(http_req_duration) <= 900"));
        SloRule general = rules.forSystem("search").orElseThrow().getFirst();
        assertThat(general.getMetric().toString()).isEqualTo("http_req_duration");
        assertThat(general.getStatistic().toString()).isEqualTo("p95");
        assertThat(general.getComparator()).isEqualTo(Comparator.LE);
        assertThat(general.getThreshold()).isEqualTo(500.0);
        List<SloRule> shop = rules.forSystem("shop").orElseThrow();
        assertThat(shop).extracting(r -> r.getStatistic().toString()).containsExactly("rate", "p99");
        assertThat(shop.getFirst().getThreshold()).isEqualTo(0.01);
        assertThat(DefaultSloOption.parse(List.of()).forSystem("shop")).isEmpty();
        assertThat(DefaultSloOption.parse(List.of("sut=shop:p95(x)<=1")).forSystem("search")).isEmpty();
    }

    @Test
    void aBadValueIsRefusedNamingIt() {
        assertThatThrownBy(() -> DefaultSloOption.parse(List.of("sut=:p95(x)<=1")))
                .hasMessageContaining("--default-slo 'sut=:p95(x)<=1'").hasMessageContaining("sut=NAME:RULE");
        assertThatThrownBy(() -> DefaultSloOption.parse(List.of("p95(x)<=fast")))
                .hasMessageContaining("--default-slo 'p95(x)<=fast'").hasMessageContaining("not a number");
    }
}
