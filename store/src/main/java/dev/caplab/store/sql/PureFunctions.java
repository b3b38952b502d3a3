package dev.caplab.store.sql;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which functions a statement may call: only those that compute from their arguments and the query's rows, and
 * read, write, contact and reveal nothing else (no file, url, dictionary, setting, server or user, no model or
 * network call). The engine's own catalogue ({@code system.functions}) says what each name is; the rule is an
 * allow-list over it, so a function this rule has not reviewed, or a future engine adds, is refused:
 * <ol>
 *   <li>the name resolves through {@code system.functions}: exactly, or case-insensitively where the engine does,
 *       an alias to its target, an aggregate with combinator suffixes ({@code sumIf}, {@code uniqStateMerge}) to
 *       its base aggregate; names the parser itself emits ({@link #SYNTAX}) stand for themselves;</li>
 *   <li>user-defined functions (origin other than {@code System}) are refused, they can run anything;</li>
 *   <li>aggregate and window functions are allowed: they fold the query's own rows;</li>
 *   <li>other functions are allowed when their category is in {@link #PURE_CATEGORIES} and their name is not in
 *       {@link #IMPURE_IN_PURE_CATEGORIES}, or when the name is in {@link #PURE_UNCATEGORISED} (reviewed one by one
 *       from the mixed {@code Other} category);</li>
 *   <li>anything else is refused: {@code Other}, {@code Dictionary}, {@code Embedded Dictionary},
 *       {@code Introspection}, {@code Internal}, {@code AI}, uncategorised, and unknown names.</li>
 * </ol>
 * Table functions are not functions here: {@link StatementPolicy} judges them. Build one from the engine's catalogue
 * with {@link #CATALOGUE} and {@link #COMBINATORS} ({@link #of}).
 */
public final class PureFunctions {

    /** The engine's function catalogue, one {@link Entry} a row (tab-separated). */
    public static final String CATALOGUE = "SELECT name, is_aggregate, case_insensitive, alias_to, origin, categories"
            + " FROM system.functions";
    /** The engine's aggregate combinators ({@code If}, {@code State}…), one name a row. */
    public static final String COMBINATORS = "SELECT name FROM system.aggregate_function_combinators";

    /** Categories (ClickHouse 26.5 {@code system.functions.categories}) whose members are pure computations. */
    static final Set<String> PURE_CATEGORIES = Set.of("Aggregate Functions", "Arithmetic", "Arrays", "Bit", "Bitmap",
            "Comparison", "Conditional", "Dates and Times", "Distance", "Encoding", "Encryption", "Financial", "Geo",
            "Geo Polygon", "Hash", "IP Address", "JSON", "Logical", "Machine Learning", "Map", "Mathematical", "Null",
            "NumericIndexedVector", "Random Number", "Rounding", "String", "String Replacement", "String Search",
            "String Splitting", "Time Series", "Time Window", "Tuple", "Type Conversion", "URL", "UUID");

    /** Members of pure categories that reveal the server or read its configuration. */
    static final Set<String> IMPURE_IN_PURE_CATEGORIES = Set.of("serverTimezone", "timezone", "chdb",
            "naiveBayesClassifier");

    /**
     * Pure members of {@code Other}: formatting, type and row-window helpers. {@code sleep}/{@code sleepEachRow}
     * read and reveal nothing; the time they take is what {@code max_execution_time} bounds. {@code currentDatabase}
     * names the database the client chose; {@code version} the engine's version, which every error message and
     * ClickHouse client handshake tells anyway.
     */
    static final Set<String> PURE_UNCATEGORISED = Set.of("bar", "currentDatabase", "version", "byteSize", "countDigits", "finalizeAggregation",
            "formatReadableDecimalSize", "formatReadableQuantity", "formatReadableSize", "formatReadableTimeDelta",
            "identity", "ignore", "initializeAggregation", "isDecimalOverflow", "materialize", "neighbor",
            "parseReadableSize", "parseReadableSizeOrNull", "parseReadableSizeOrZero", "parseTimeDelta",
            "runningAccumulate", "runningDifference", "runningDifferenceStartingWithFirstValue", "sleep",
            "sleepEachRow", "throwIf", "toTypeName", "transform", "variantElement", "variantType", "visibleWidth");

    /**
     * Names ClickHouse's parser writes for syntax ({@code x -> y}, {@code EXISTS}, {@code GROUPING}) and for a bound
     * query parameter ({@code {x:UInt8}} is parsed as {@code _CAST(41, 'UInt8')}).
     */
    static final Set<String> SYNTAX = Set.of("lambda", "exists", "grouping", "_CAST");

    /** One row of {@code system.functions}. */
    public record Entry(String name, boolean aggregate, boolean caseInsensitive, String aliasTo, String origin,
                 String category) {
    }

    /**
     * The rule over {@code catalogue}, the rows of {@link #CATALOGUE} ({@code name, is_aggregate, case_insensitive,
     * alias_to, origin, categories}), and {@code combinators}, the rows of {@link #COMBINATORS}.
     */
    public static PureFunctions of(List<List<String>> catalogue, List<List<String>> combinators) {
        List<Entry> entries = catalogue.stream().map(r -> new Entry(r.get(0), "1".equals(r.get(1)),
                "1".equals(r.get(2)), r.get(3), r.get(4), r.get(5))).toList();
        Set<String> names = new HashSet<>();
        combinators.forEach(r -> names.add(r.getFirst()));
        return new PureFunctions(entries, names);
    }

    private final Map<String, Entry> exact = new HashMap<>();
    private final Map<String, Entry> caseInsensitive = new HashMap<>();
    private final List<String> combinators;

    public PureFunctions(List<Entry> catalogue, Set<String> aggregateCombinators) {
        for (Entry e : catalogue) {
            exact.put(e.name(), e);
            if (e.caseInsensitive()) {
                caseInsensitive.put(e.name().toLowerCase(Locale.ROOT), e);
            }
        }
        // longest first, so "OrDefault" is tried before a shorter suffix of it
        combinators = aggregateCombinators.stream().sorted(Comparator.comparingInt(String::length).reversed())
                .toList();
    }

    /** Why {@code name} may not be called, or empty when it may. */
    public Optional<String> refusal(String name) {
        if (SYNTAX.contains(name)) {
            return Optional.empty();
        }
        Optional<Entry> entry = lookup(name);
        if (entry.isPresent()) {
            return judge(entry.get());
        }
        Optional<Entry> aggregate = baseAggregate(name);
        if (aggregate.isPresent()) {
            return judge(aggregate.get());
        }
        return Optional.of("it is not a function the engine knows");
    }

    private Optional<String> judge(Entry e) {
        if (!"System".equals(e.origin())) {
            return Optional.of("user-defined functions (" + e.origin() + ") are not allowed");
        }
        if (e.aggregate()) {
            return Optional.empty();
        }
        if (PURE_CATEGORIES.contains(e.category()) && !IMPURE_IN_PURE_CATEGORIES.contains(e.name())
                || PURE_UNCATEGORISED.contains(e.name())) {
            return Optional.empty();
        }
        return Optional.of("it is not a pure function (category '" + e.category() + "'); only functions that"
                + " compute from their arguments are allowed");
    }

    /** The entry a name resolves to, aliases followed to their target. */
    private Optional<Entry> lookup(String name) {
        Entry e = exact.get(name);
        if (e == null) {
            e = caseInsensitive.get(name.toLowerCase(Locale.ROOT));
        }
        if (e == null) {
            return Optional.empty();
        }
        if (!e.aliasTo().isEmpty()) {
            Entry target = exact.get(e.aliasTo());
            return target == null || !target.aliasTo().isEmpty() ? Optional.empty() : Optional.of(target);
        }
        return Optional.of(e);
    }

    /** {@code sumIf} → {@code sum}, {@code uniqStateMerge} → {@code uniq}: combinators only ever suffix aggregates. */
    private Optional<Entry> baseAggregate(String name) {
        for (String combinator : combinators) {
            if (name.length() > combinator.length() && name.endsWith(combinator)) {
                String base = name.substring(0, name.length() - combinator.length());
                Optional<Entry> found = lookup(base).filter(Entry::aggregate).or(() -> baseAggregate(base));
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }
}
