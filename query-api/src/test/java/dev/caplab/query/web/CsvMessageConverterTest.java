package dev.caplab.query.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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

    private static String csv(List<Row> rows) throws Exception {
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
}
