package dev.caplab.recipes;

import dev.caplab.schema.event.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A source or label value of a derived series, written like {@code "{source}/process"}: {@code {source}} is the
 * raw sample's source, {@code {name}} the value of its label {@code name} (empty when absent), anything else is
 * literal. Parsed once, rendered per sample.
 */
public record Template(String text, List<Part> parts) {

    /** The raw source, for {@code {source}}. */
    public static final String SOURCE = "source";

    /** A literal piece, or the name of what to substitute. */
    public record Part(String literal, String placeholder) {
    }

    public Template {
        Objects.requireNonNull(text, "text");
        parts = List.copyOf(parts);
    }

    public static Template of(String text) {
        List<Part> parts = new ArrayList<>();
        int at = 0;
        while (at < text.length()) {
            int open = text.indexOf('{', at);
            if (open < 0) {
                parts.add(new Part(text.substring(at), null));
                break;
            }
            int close = text.indexOf('}', open);
            if (close < 0) {
                throw new IllegalArgumentException("unclosed '{' in template '" + text + "'");
            }
            if (open > at) {
                parts.add(new Part(text.substring(at, open), null));
            }
            parts.add(new Part(null, text.substring(open + 1, close)));
            at = close + 1;
        }
        return new Template(text, parts);
    }

    /** The text with every placeholder filled from {@code raw}. */
    public String render(Sample raw) {
        if (parts.size() == 1 && parts.getFirst().literal() != null) {
            return parts.getFirst().literal();
        }
        StringBuilder out = new StringBuilder();
        for (Part part : parts) {
            if (part.literal() != null) {
                out.append(part.literal());
            } else if (part.placeholder().equals(SOURCE)) {
                out.append(raw.getSource());
            } else {
                String value = raw.getLabels().get(part.placeholder());
                out.append(value == null ? "" : value);
            }
        }
        return out.toString();
    }
}
