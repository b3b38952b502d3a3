package dev.caplab.store.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The allow-list over the engine's catalogue, on rows copied from chDB 26.5's {@code system.functions}. */
class PureFunctionsTest {

    private static PureFunctions.Entry row(String name, int aggregate, int caseInsensitive, String aliasTo,
                                           String category) {
        return new PureFunctions.Entry(name, aggregate == 1, caseInsensitive == 1, aliasTo, "System", category);
    }

    // SELECT name, is_aggregate, case_insensitive, alias_to, origin, categories FROM system.functions WHERE name IN …
    public static final PureFunctions FUNCTIONS = new PureFunctions(List.of(
            row("CAST", 0, 1, "", "Type Conversion"),
            row("addressToSymbol", 0, 0, "", "Introspection"),
            row("aiGenerate", 0, 0, "", "AI"),
            row("count", 1, 1, "", "Aggregate Functions"),
            row("currentDatabase", 0, 0, "", "Other"),
            row("currentUser", 0, 0, "", "Other"),
            row("dictGet", 0, 0, "", "Dictionary"),
            row("equals", 0, 0, "", "Comparison"),
            row("file", 0, 0, "", "Other"),
            row("filesystemAvailable", 0, 0, "", "Other"),
            row("filesystemCapacity", 0, 0, "", "Other"),
            row("filesystemFree", 0, 0, "", "Other"),
            row("formatQuerySingleLine", 0, 0, "", "Other"),
            row("getMacro", 0, 0, "", "Other"),
            row("getOSKernelVersion", 0, 0, "", "Other"),
            row("getServerSetting", 0, 0, "", "Other"),
            row("getSetting", 0, 0, "", "Other"),
            row("hostName", 0, 0, "", "Other"),
            row("in", 0, 0, "", "Comparison"),
            row("joinGet", 0, 0, "", "Other"),
            row("lcase", 0, 1, "lower", ""),
            row("lower", 0, 1, "", "String"),
            row("naiveBayesClassifier", 0, 0, "", "Machine Learning"),
            row("plus", 0, 0, "", "Arithmetic"),
            row("row_number", 1, 1, "", ""),
            row("serverTimezone", 0, 0, "", "Dates and Times"),
            row("sleepEachRow", 0, 0, "", "Other"),
            row("sum", 1, 1, "", "Aggregate Functions"),
            row("tcpPort", 0, 0, "", "Other"),
            row("timeZone", 0, 1, "timezone", ""),
            row("timezone", 0, 1, "", "Dates and Times"),
            row("toStartOfMinute", 0, 0, "", "Dates and Times"),
            row("uniq", 1, 0, "", "Aggregate Functions"),
            row("uptime", 0, 0, "", "Other"),
            row("version", 0, 0, "", "Other"),
            row("catboostEvaluate", 0, 0, "", "Other"),
            row("hasColumnInTable", 0, 0, "", "Other"),
            row("hasThreadFuzzer", 0, 0, "", "Other"),
            row("joinGetOrNull", 0, 0, "", "Other"),
            row("serverUUID", 0, 0, "", "Other"),
            row("FQDN", 0, 1, "", "Other"),
            row("fqdn", 0, 1, "FQDN", ""),
            row("format", 0, 0, "", "String Replacement"),
            new PureFunctions.Entry("myUdf", false, false, "", "SQLUserDefined", "")),
            Set.of("SimpleState", "OrDefault", "Distinct", "Resample", "ForEach", "ArgMax", "ArgMin", "OrNull", "Merge",
                    "State", "Array", "Null", "Map", "If"));

    @Test
    void allowsPureScalarsAggregatesCombinatorsAliasesAndSyntax() {
        for (String name : List.of("plus", "equals", "in", "toStartOfMinute", "CAST", "cast", "LOWER", "lcase",
                "LCASE", "count", "COUNT", "sum", "sumIf", "uniqStateMerge", "COUNTDistinct", "countDistinctIf",
                "row_number", "lambda", "exists", "grouping", "_CAST", "sleepEachRow", "currentDatabase", "version")) {
            assertThat(FUNCTIONS.refusal(name)).as(name).isEmpty();
        }
    }

    @Test
    void refusesFunctionsThatReachOutsideTheQueryAndUnknownNames() {
        for (String name : List.of("file", "getSetting", "getServerSetting", "getMacro", "hostName", "currentUser",
                "tcpPort", "filesystemAvailable", "dictGet", "joinGet", "addressToSymbol", "aiGenerate",
                "serverTimezone", "timezone", "timeZone", "naiveBayesClassifier", "myUdf", "url", "s3", "remote",
                "numbers", "equalsIf", "fileIf", "FILE", "uniqX", "getOSKernelVersion", "filesystemFree",
                "filesystemCapacity", "uptime", "catboostEvaluate", "hasColumnInTable", "hasThreadFuzzer",
                "joinGetOrNull", "serverUUID", "FQDN", "fqdn", "formatQuerySingleLine", "numbers_mt", "zeros_mt",
                "generateRandom", "merge")) {
            assertThat(FUNCTIONS.refusal(name)).as(name).isPresent();
        }
        assertThat(FUNCTIONS.refusal("myUdf")).get().asString().contains("user-defined");
        assertThat(FUNCTIONS.refusal("file")).get().asString().contains("category 'Other'");
        assertThat(FUNCTIONS.refusal("url")).get().asString().contains("not a function the engine knows");
    }
}
