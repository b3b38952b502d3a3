package dev.caplab.query.report;

import dev.caplab.query.format.Figures;
import java.util.Locale;
import org.springframework.web.util.HtmlUtils;

/** Text and numbers as the report writes them: every string escaped, every figure as {@link Figures} writes it. */
final class Html {

    private Html() {
    }

    /** {@code value} escaped for an HTML text node or a quoted attribute (also inside SVG); null is empty. */
    static String text(Object value) {
        return value == null ? "" : HtmlUtils.htmlEscape(String.valueOf(value), "UTF-8");
    }

    /** A number for people ({@link Figures#number}), "–" when unknown. */
    static String num(Double value) {
        return Figures.number(value);
    }

    /** A share (0–1) as a percentage. */
    static String percent(Double share) {
        return Figures.percent(share);
    }

    /** A coordinate for SVG: fixed, two decimals, never locale-dependent. */
    static String coord(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
