package dev.caplab.query.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import org.springframework.web.util.HtmlUtils;

/** Text and numbers as the report writes them: every string escaped, numbers to four significant digits. */
final class Html {

    private static final MathContext FOUR_DIGITS = new MathContext(4);
    private static final String[] SI = {"", "k", "M", "G", "T", "P"};

    private Html() {
    }

    /** {@code value} escaped for an HTML text node or a quoted attribute (also inside SVG); null is empty. */
    static String text(Object value) {
        return value == null ? "" : HtmlUtils.htmlEscape(String.valueOf(value), "UTF-8");
    }

    /** A number for people: four significant digits, SI prefixes from a million on, "–" when unknown. */
    static String num(Double value) {
        if (value == null || !Double.isFinite(value)) {
            return "–";
        }
        double abs = Math.abs(value);
        if (abs >= 1e6) {
            int prefix = Math.min(SI.length - 1, (int) Math.floor(Math.log10(abs) / 3));
            return plain(value / Math.pow(1000, prefix)) + SI[prefix];
        }
        return plain(value);
    }

    /** A share (0–1) as a percentage. */
    static String percent(Double share) {
        return share == null || !Double.isFinite(share) ? "–" : plain(share * 100) + " %";
    }

    /** A coordinate for SVG: fixed, two decimals, never locale-dependent. */
    static String coord(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String plain(double value) {
        if (value == 0) {
            return "0";
        }
        return new BigDecimal(value).round(FOUR_DIGITS).stripTrailingZeros().toPlainString();
    }
}
