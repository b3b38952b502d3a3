package dev.caplab.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryStringTest {

    @Test
    void decodesPercentAndPlusAndKeepsRepeatsInOrder() {
        Map<String, List<String>> parsed = QueryString.parse("db=r%201&p=a+b%2Bc&tag=x&tag=y&flag");
        assertThat(parsed).containsExactly(Map.entry("db", List.of("r 1")), Map.entry("p", List.of("a b+c")),
                Map.entry("tag", List.of("x", "y")), Map.entry("flag", List.of("")));
        assertThat(QueryString.first(null, "p")).isNull();
    }

    @Test
    void malformedEscapesAreATypedError() {
        assertThatThrownBy(() -> QueryString.parse("p=%zz")).isInstanceOf(QueryString.MalformedQueryStringException.class)
                .hasMessageContaining("the value of parameter 'p'").hasMessageNotContaining("%zz");
    }
}
