package dev.caplab.query.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.mock.http.MockHttpOutputMessage;
import tools.jackson.databind.json.JsonMapper;

/** CSV as a spreadsheet opens it: formula injection (OWASP's prefixes) and label maps that cannot be misread. */
class CsvMessageConverterTest {

    record Row(String runId, double x, String note, Map<String, String> labels) {
    }

    record Part(double fromX, Double stdErr) {
    }

    record Stored(String runId, @JsonIgnore long version, List<Part> parts) {

        @JsonProperty("partCount")
        public int partCount() {
            return parts.size();
        }
    }

    record Listed(@JsonUnwrapped Stored stored, Instant at) {
    }

    private static String csv(List<?> rows) throws Exception {
        MockHttpOutputMessage out = new MockHttpOutputMessage();
        new CsvMessageConverter().write(rows, CsvMessageConverter.TEXT_CSV, out);
        return out.getBodyAsString(StandardCharsets.UTF_8);
    }

    @Test
    void neutralisesEveryFormulaPrefix() {
        assertThat(CsvMessageConverter.cell("=HYPERLINK(\"http://evil.example\",\"x\")"))
                .isEqualTo("\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\"");
        assertThat(CsvMessageConverter.cell("+cmd|' /C calc'!A0")).isEqualTo("\"'+cmd|' /C calc'!A0\"");
        assertThat(CsvMessageConverter.cell("-2+3")).isEqualTo("\"'-2+3\"");
        assertThat(CsvMessageConverter.cell("@SUM(A1:A2)")).isEqualTo("\"'@SUM(A1:A2)\"");
        assertThat(CsvMessageConverter.cell("\t=1")).isEqualTo("\"'\t=1\"");
        assertThat(CsvMessageConverter.cell("\r=1")).isEqualTo("\"'\r=1\"");
    }

    @Test
    void leavesNumbersAndPlainTextAlone() {
        assertThat(CsvMessageConverter.cell(-1.5)).isEqualTo("-1.5");
        assertThat(CsvMessageConverter.cell(-42L)).isEqualTo("-42");
        assertThat(CsvMessageConverter.cell("-1.5")).isEqualTo("-1.5");
        assertThat(CsvMessageConverter.cell("+3e-2")).isEqualTo("+3e-2");
        assertThat(CsvMessageConverter.cell("ep19-lightnode")).isEqualTo("ep19-lightnode");
        assertThat(CsvMessageConverter.cell("a, b")).isEqualTo("\"a, b\"");
    }

    @Test
    void writesLabelMapsAsAJsonObjectThatReadsBackToTheSameMap() throws Exception {
        Map<String, String> tricky = new LinkedHashMap<>();
        tricky.put("k;=x", "v=1");
        tricky.put("a", "b");
        String text = csv(List.of(new Row("=cmd", -1.5, "@x", tricky)));
        assertThat(text).isEqualTo("runId,x,note,labels\r\n"
                + "\"'=cmd\",-1.5,\"'@x\",\"{\"\"a\"\":\"\"b\"\",\"\"k;=x\"\":\"\"v=1\"\"}\"\r\n");
        String cell = text.lines().skip(1).findFirst().orElseThrow();
        String json = cell.substring(cell.indexOf(",\"{") + 2, cell.length() - 1).replace("\"\"", "\"");
        assertThat(JsonMapper.builder().build().readValue(json, Map.class)).isEqualTo(tricky);
    }

    @Test
    void writesListsAsAJsonArraySoASemicolonInsideAnItemStaysInIt() throws Exception {
        String cell = CsvMessageConverter.cell(List.of("p95<=500; p99<=900", "errors<1%"));
        assertThat(cell).isEqualTo("\"[\"\"p95<=500; p99<=900\"\",\"\"errors<1%\"\"]\"");
        String json = cell.substring(1, cell.length() - 1).replace("\"\"", "\"");
        assertThat(JsonMapper.builder().build().readValue(json, List.class))
                .containsExactly("p95<=500; p99<=900", "errors<1%");
    }

    @Test
    void columnsAreTheJsonPropertiesComputedOnesIncludedIgnoredOnesLeftOut() throws Exception {
        Stored stored = new Stored("r1", 7, List.of(new Part(0, 0.5), new Part(25, null)));
        String json = JsonMapper.builder().build().writeValueAsString(stored);

        String text = csv(List.of(stored));

        assertThat(json).doesNotContain("version").contains("\"partCount\":2");
        assertThat(text).isEqualTo("runId,parts,partCount\r\n"
                + "r1,\"[\"\"fromX:0.0 stdErr:0.5\"\",\"\"fromX:25.0 stdErr:null\"\"]\",2\r\n");
    }

    @Test
    void anUnwrappedRecordsPropertiesAreColumnsOfTheirOwnAndAnEmptyTableStillHasThem() throws Exception {
        Listed listed = new Listed(new Stored("r2", 1, List.of()), Instant.parse("2026-12-07T10:15:30Z"));

        assertThat(csv(List.of(listed))).isEqualTo("runId,parts,partCount,at\r\n"
                + "r2,[],0,2026-12-07T10:15:30Z\r\n");
        MockHttpOutputMessage out = new MockHttpOutputMessage();
        new CsvMessageConverter().write(new TabularResponse() {
            @Override
            public List<? extends Record> rows() {
                return List.of();
            }

            @Override
            public Class<? extends Record> rowType() {
                return Listed.class;
            }
        }, CsvMessageConverter.TEXT_CSV, out);
        assertThat(out.getBodyAsString(StandardCharsets.UTF_8)).isEqualTo("runId,parts,partCount,at\r\n");
    }
}
