package dev.caplab.query.web;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.avro.specific.SpecificRecordBase;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractGenericHttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.converter.HttpMessageNotWritableException;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsonFormatVisitors.JsonFormatVisitorWrapper;
import tools.jackson.databind.jsonFormatVisitors.JsonObjectFormatVisitor;

/**
 * Writes records (Java or Avro specific records), lists of them and {@link TabularResponse}s as RFC 4180 CSV whose
 * columns are the rows' JSON properties as {@link ApiJson} writes them, so every table the API serves as JSON can
 * also be read by {@code pandas.read_csv} under the same names. Maps become a JSON object in the cell
 * ({@code {"k;=x":"v"}}), unambiguous whatever the keys hold; nested lists and records are written as their
 * {@code toString}-free CSV-safe text. A text cell a spreadsheet would run as a formula is neutralised
 * ({@link #neutralised}).
 */
public final class CsvMessageConverter extends AbstractGenericHttpMessageConverter<Object> {

    public static final MediaType TEXT_CSV = new MediaType("text", "csv", StandardCharsets.UTF_8);

    private static final String FORMULA_START = "=+-@\t\r";
    private static final Pattern PLAIN_NUMBER = Pattern.compile("[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?");
    private static final JsonMapper JSON = ApiJson.mapper();
    private static final Map<Class<?>, List<String>> COLUMNS = new ConcurrentHashMap<>();

    public CsvMessageConverter() {
        super(TEXT_CSV, new MediaType("text", "csv"));
    }

    @Override
    public boolean canRead(Type type, Class<?> contextClass, MediaType mediaType) {
        return false;
    }

    @Override
    protected boolean supports(Class<?> clazz) {
        return isRow(clazz) || Collection.class.isAssignableFrom(clazz) || TabularResponse.class.isAssignableFrom(clazz);
    }

    @Override
    public boolean canWrite(Type type, Class<?> clazz, MediaType mediaType) {
        return canWrite(mediaType) && rowTypeOf(type, clazz) != null;
    }

    @Override
    protected void writeInternal(Object body, Type type, HttpOutputMessage out)
            throws IOException, HttpMessageNotWritableException {
        List<?> rows;
        Class<?> rowType;
        if (body instanceof TabularResponse table) {
            rows = table.rows();
            rowType = table.rowType();
        } else if (body instanceof Collection<?> collection) {
            rows = List.copyOf(collection);
            rowType = rows.isEmpty() ? rowTypeOf(type, body.getClass()) : rows.getFirst().getClass();
        } else {
            rows = List.of(body);
            rowType = body.getClass();
        }
        if (rowType == null || !isRow(rowType)) {
            throw new HttpMessageNotWritableException("CSV needs rows that are records or Avro records, got " + rowType);
        }
        List<String> columns = columnsOf(rowType);
        Writer w = new OutputStreamWriter(out.getBody(), StandardCharsets.UTF_8);
        w.write(String.join(",", columns));
        w.write("\r\n");
        for (Object row : rows) {
            Map<?, ?> properties = JSON.convertValue(row, Map.class);
            for (int i = 0; i < columns.size(); i++) {
                w.write(i == 0 ? "" : ",");
                w.write(cell(properties.get(columns.get(i))));
            }
            w.write("\r\n");
        }
        w.flush();
    }

    /**
     * A row type's columns are its JSON properties, in their JSON order: the same names a JSON reader sees, computed
     * properties ({@code @JsonProperty} methods) included, ignored ones left out, unwrapped records flattened.
     */
    public static List<String> columnsOf(Class<?> rowType) {
        return COLUMNS.computeIfAbsent(rowType, type -> {
            List<String> names = new ArrayList<>();
            JSON.acceptJsonFormatVisitor(type, new JsonFormatVisitorWrapper.Base() {
                @Override
                public JsonObjectFormatVisitor expectObjectFormat(JavaType objectType) {
                    return new JsonObjectFormatVisitor.Base(getContext()) {
                        @Override
                        public void property(BeanProperty property) {
                            names.add(property.getName());
                        }

                        @Override
                        public void optionalProperty(BeanProperty property) {
                            names.add(property.getName());
                        }
                    };
                }
            });
            return List.copyOf(names);
        });
    }

    static String cell(Object value) {
        String text = switch (value) {
            case null -> "";
            case Number number -> number.toString();
            case Map<?, ?> map -> json(map);
            case Collection<?> list -> JSON.writeValueAsString(list.stream().map(CsvMessageConverter::plain).toList());
            default -> plain(value);
        };
        if (!(value instanceof Number)) {
            text = neutralised(text);
        }
        boolean quote = text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0
                || text.indexOf('\r') >= 0 || text.startsWith("'");
        return quote ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }

    /** Keys sorted, so the same map is always the same cell. */
    private static String json(Map<?, ?> map) {
        Map<String, Object> sorted = new TreeMap<>();
        map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
        return JSON.writeValueAsString(sorted);
    }

    /**
     * OWASP's CSV-injection rule: text starting with {@code = + - @}, tab or CR is prefixed with a single quote (and
     * then quoted), so a spreadsheet shows it instead of evaluating it. A plain number such as {@code -1.5} or
     * {@code +3e-2} is not a formula and stays as it is, so numeric columns still parse as numbers.
     */
    static String neutralised(String text) {
        if (text.isEmpty() || FORMULA_START.indexOf(text.charAt(0)) < 0 || PLAIN_NUMBER.matcher(text).matches()) {
            return text;
        }
        return "'" + text;
    }

    private static String plain(Object value) {
        if (value instanceof Map<?, ?> nested) {
            // nested records (segments, breakpoints) as name:value pairs, readable and splittable
            StringBuilder sb = new StringBuilder();
            nested.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append(k).append(':').append(v));
            return sb.toString();
        }
        return String.valueOf(value);
    }

    private static Class<?> rowTypeOf(Type type, Class<?> clazz) {
        if (isRow(clazz) || TabularResponse.class.isAssignableFrom(clazz)) {
            return isRow(clazz) && !TabularResponse.class.isAssignableFrom(clazz) ? clazz : Record.class;
        }
        if (Collection.class.isAssignableFrom(clazz) && type instanceof ParameterizedType p
                && p.getActualTypeArguments()[0] instanceof Class<?> element && isRow(element)) {
            return element;
        }
        return null;
    }

    /** A row is a Java record or an Avro specific record: both are a fixed set of named JSON properties. */
    private static boolean isRow(Class<?> type) {
        return type.isRecord() || SpecificRecordBase.class.isAssignableFrom(type);
    }

    @Override
    public Object read(Type type, Class<?> contextClass, HttpInputMessage in) throws HttpMessageNotReadableException {
        throw new HttpMessageNotReadableException("CSV request bodies are not accepted", in);
    }

    @Override
    protected Object readInternal(Class<?> clazz, HttpInputMessage in) throws HttpMessageNotReadableException {
        throw new HttpMessageNotReadableException("CSV request bodies are not accepted", in);
    }
}
