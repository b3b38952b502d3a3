package dev.caplab.ingest.docker;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.ingest.adapter.InputLine;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.LineTimestamps;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.ingest.adapter.UndatedRows;
import dev.caplab.ingest.parse.ParseResult;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Lines of {@code docker stats --format '{{json .}}'}. docker prints no time, so each line is stamped, in order of
 * preference, with a timestamp before it on the same line, with the last line that held only a timestamp (a
 * {@code date -Is; docker stats --no-stream} loop), or with what {@link UndatedRows} gives (the read time when piped
 * or followed live, {@code -o at=} for a saved file, else the line is refused). The screen-clear
 * escapes docker writes between refreshes in streaming mode are removed.
 */
final class DockerStatsParser implements LineParser {

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[A-Za-z]");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final DockerStatsLine mapper;
    private final UndatedRows undated;
    private Instant frameTime;

    DockerStatsParser(String system, Map<String, String> groupByContainer, UndatedRows undated) {
        this.mapper = new DockerStatsLine(system, groupByContainer);
        this.undated = undated;
    }

    @Override
    public ParseResult accept(InputLine line) {
        String text = ANSI.matcher(line.text()).replaceAll("").strip();
        ResultBuilder out = new ResultBuilder();
        if (text.isEmpty()) {
            return out.build();
        }
        LineTimestamps.Stamped stamped = LineTimestamps.split(text);
        if (stamped.rest().isEmpty() && stamped.at().isPresent()) {
            frameTime = stamped.at().get();
            return out.build();
        }
        JsonNode node;
        try {
            node = JSON.readTree(stamped.rest());
        } catch (JacksonException e) {
            return out.error(line.number(), null, "not a JSON object: " + e.getOriginalMessage(), line.text()).build();
        }
        if (node == null || !node.isObject()) {
            return out.error(line.number(), null, "not a JSON object", line.text()).build();
        }
        try {
            Instant at = stamped.at().or(() -> Optional.ofNullable(frameTime)).orElseGet(() -> undated.timeOf(line));
            mapper.map(node, at).forEach(out::sample);
        } catch (FieldException e) {
            out.error(line.number(), e.field(), e.reason(), line.text());
        }
        return out.build();
    }

    @Override
    public ParseResult finish() {
        return ResultBuilder.none();
    }
}
