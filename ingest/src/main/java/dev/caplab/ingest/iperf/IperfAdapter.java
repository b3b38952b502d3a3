package dev.caplab.ingest.iperf;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.InputLine;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.ingest.parse.ParseResult;
import java.util.Set;

/** iperf3 {@code -J} reports: the document is buffered and read when the input ends. */
public final class IperfAdapter implements Adapter {

    public static final String FORMAT = "iperf3";

    public static IperfAdapter of(AdapterOptions options) {
        options.requireKnown(FORMAT, Set.of(), Set.of());
        return new IperfAdapter();
    }

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public LineParser newParser() {
        return new LineParser() {
            private final StringBuilder document = new StringBuilder();

            @Override
            public ParseResult accept(InputLine line) {
                document.append(line.text()).append('\n');
                return ResultBuilder.none();
            }

            @Override
            public ParseResult finish() {
                ResultBuilder out = new ResultBuilder();
                try {
                    IperfSamples.of(IperfReport.parse(document.toString())).forEach(out::sample);
                } catch (IperfReportException e) {
                    out.error(e.line(), e.field(), e.getMessage(), "");
                }
                return out.build();
            }
        };
    }
}
