package dev.caplab.ingest.docker;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.BadOptionException;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.UndatedRows;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code docker stats --format '{{json .}}'} output. Options: {@code group.NAME=c1,c2} labels those containers
 * {@code group=NAME} so they can be summed as one system (Jitsi's four containers, LiveKit plus its app);
 * {@code host=NAME} labels every sample with the docker host; {@code at=INSTANT} is the time of lines without a
 * timestamp in a saved file ({@link UndatedRows}).
 */
public final class DockerStatsAdapter implements Adapter {

    public static final String FORMAT = "docker-stats";

    private final String host;
    private final Map<String, String> groupByContainer;
    private final UndatedRows undated;

    public DockerStatsAdapter(String host, Map<String, String> groupByContainer, UndatedRows undated) {
        this.host = host;
        this.groupByContainer = Map.copyOf(groupByContainer);
        this.undated = undated;
    }

    public static DockerStatsAdapter of(AdapterOptions options) {
        options.requireKnown(FORMAT, Set.of("host", UndatedRows.OPTION), Set.of("group."));
        Map<String, String> groupByContainer = new LinkedHashMap<>();
        options.withPrefix("group.").forEach((group, containers) -> {
            for (String container : containers.split(",")) {
                String previous = groupByContainer.put(container.strip(), group);
                if (previous != null && !previous.equals(group)) {
                    throw new BadOptionException("group." + group,
                            "container " + container.strip() + " is already in group " + previous);
                }
            }
        });
        return new DockerStatsAdapter(options.text("host", null), groupByContainer, UndatedRows.of(FORMAT, options));
    }

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public LineParser newParser() {
        return new DockerStatsParser(host, groupByContainer, undated);
    }
}
