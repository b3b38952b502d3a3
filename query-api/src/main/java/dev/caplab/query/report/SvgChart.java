package dev.caplab.query.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A small scatter-and-line chart drawn as inline SVG (no script, no fonts to fetch): points with a tooltip each,
 * polylines, a vertical marker with an interval band (a knee) and horizontal reference lines (a ceiling). Colours
 * come from the report's style sheet through CSS classes.
 */
final class SvgChart {

    private static final int WIDTH = 560;
    private static final int HEIGHT = 320;
    private static final int LEFT = 88;
    private static final int RIGHT = 16;
    private static final int TOP = 28;
    private static final int BOTTOM = 64;

    /** A data point; {@code css} classes it (e.g. pass, fail), {@code tooltip} is shown on hover. */
    record Point(double x, double y, String css, String tooltip) {
    }

    private record Legend(String css, String name) {
    }

    private final String chartName;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Range x;
    private final Range y;
    private final StringBuilder layers = new StringBuilder();
    private final StringBuilder points = new StringBuilder();
    private final List<Legend> legend = new ArrayList<>();
    private Function<Double, String> yTick = Html::num;
    private boolean binaryY;

    SvgChart(String chartName, String title, String xLabel, String yLabel, Range x, Range y) {
        this.chartName = chartName;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.x = x;
        this.y = y;
    }

    /** How the y axis writes its tick values (a plain number unless told), e.g. in the metric's unit. */
    SvgChart yTicks(Function<Double, String> format) {
        return yTicks(format, false);
    }

    /** As {@link #yTicks(Function)}, ticks a power of two apart when the values are written in binary units. */
    SvgChart yTicks(Function<Double, String> format, boolean binary) {
        this.yTick = format;
        this.binaryY = binary;
        return this;
    }

    /** A series of points, joined by a line when {@code joined}. */
    SvgChart series(String css, String name, List<Point> data, boolean joined) {
        if (joined && data.size() > 1) {
            StringBuilder path = new StringBuilder();
            for (Point p : data) {
                path.append(path.isEmpty() ? "" : " ").append(Html.coord(px(p.x()))).append(',')
                        .append(Html.coord(py(p.y())));
            }
            layers.append("<polyline class=\"line ").append(Html.text(css)).append("\" points=\"").append(path)
                    .append("\"/>");
        }
        for (Point p : data) {
            points.append("<circle class=\"point ").append(Html.text(css)).append(' ').append(Html.text(p.css()))
                    .append("\" cx=\"").append(Html.coord(px(p.x()))).append("\" cy=\"").append(Html.coord(py(p.y())))
                    .append("\" r=\"4\" data-x=\"").append(p.x()).append("\" data-y=\"").append(p.y())
                    .append("\"><title>").append(Html.text(p.tooltip())).append("</title></circle>");
        }
        legend.add(new Legend(css, name));
        return this;
    }

    /** A straight segment from (x1, y1) to (x2, y2), e.g. one piece of a fit. */
    SvgChart segment(String css, double x1, double y1, double x2, double y2) {
        layers.append("<line class=\"").append(Html.text(css)).append("\" x1=\"").append(Html.coord(px(x1)))
                .append("\" y1=\"").append(Html.coord(py(y1))).append("\" x2=\"").append(Html.coord(px(x2)))
                .append("\" y2=\"").append(Html.coord(py(y2))).append("\"/>");
        return this;
    }

    /** A vertical marker at {@code at} with its interval [lower, upper] shaded when known. */
    SvgChart vertical(String css, String name, double at, Double lower, Double upper) {
        if (lower != null && upper != null && upper > lower) {
            layers.append("<rect class=\"band ").append(Html.text(css)).append("\" x=\"").append(Html.coord(px(lower)))
                    .append("\" y=\"").append(TOP).append("\" width=\"").append(Html.coord(px(upper) - px(lower)))
                    .append("\" height=\"").append(HEIGHT - TOP - BOTTOM).append("\"/>");
        }
        layers.append("<line class=\"marker ").append(Html.text(css)).append("\" x1=\"").append(Html.coord(px(at)))
                .append("\" y1=\"").append(TOP).append("\" x2=\"").append(Html.coord(px(at))).append("\" y2=\"")
                .append(HEIGHT - BOTTOM).append("\"/>");
        legend.add(new Legend(css, name));
        return this;
    }

    /** A horizontal reference line at {@code at}, e.g. a ceiling. */
    SvgChart horizontal(String css, String name, double at) {
        layers.append("<line class=\"marker ").append(Html.text(css)).append("\" x1=\"").append(LEFT)
                .append("\" y1=\"").append(Html.coord(py(at))).append("\" x2=\"").append(WIDTH - RIGHT)
                .append("\" y2=\"").append(Html.coord(py(at))).append("\"/>");
        legend.add(new Legend(css, name));
        return this;
    }

    String svg() {
        StringBuilder svg = new StringBuilder();
        svg.append("<svg class=\"chart\" data-chart=\"").append(Html.text(chartName)).append("\" viewBox=\"0 0 ")
                .append(WIDTH).append(' ').append(HEIGHT).append("\" role=\"img\" aria-label=\"").append(Html.text(title))
                .append("\">");
        svg.append("<text class=\"title\" x=\"").append(LEFT).append("\" y=\"18\">").append(Html.text(title))
                .append("</text>");
        svg.append("<g class=\"clip\">");
        axes(svg);
        svg.append(layers).append(points).append("</g>");
        double legendX = LEFT;
        for (Legend l : legend) {
            svg.append("<rect class=\"swatch ").append(Html.text(l.css())).append("\" x=\"").append(Html.coord(legendX))
                    .append("\" y=\"").append(HEIGHT - 16).append("\" width=\"10\" height=\"10\"/>");
            svg.append("<text class=\"legend\" x=\"").append(Html.coord(legendX + 14)).append("\" y=\"")
                    .append(HEIGHT - 7).append("\">").append(Html.text(l.name())).append("</text>");
            legendX += 24 + 6.5 * l.name().length();
        }
        return svg.append("</svg>").toString();
    }

    private void axes(StringBuilder svg) {
        svg.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" y1=\"").append(HEIGHT - BOTTOM)
                .append("\" x2=\"").append(WIDTH - RIGHT).append("\" y2=\"").append(HEIGHT - BOTTOM).append("\"/>");
        svg.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" y1=\"").append(TOP).append("\" x2=\"")
                .append(LEFT).append("\" y2=\"").append(HEIGHT - BOTTOM).append("\"/>");
        for (double t : ticks(x)) {
            svg.append("<text class=\"tick\" text-anchor=\"middle\" x=\"").append(Html.coord(px(t))).append("\" y=\"")
                    .append(HEIGHT - BOTTOM + 16).append("\">").append(Html.num(t)).append("</text>");
        }
        for (double t : binaryY ? binaryTicks(y) : ticks(y)) {
            svg.append("<line class=\"grid\" x1=\"").append(LEFT).append("\" y1=\"").append(Html.coord(py(t)))
                    .append("\" x2=\"").append(WIDTH - RIGHT).append("\" y2=\"").append(Html.coord(py(t)))
                    .append("\"/><text class=\"tick\" text-anchor=\"end\" x=\"").append(LEFT - 6).append("\" y=\"")
                    .append(Html.coord(py(t) + 4)).append("\">").append(Html.text(yTick.apply(t))).append("</text>");
        }
        svg.append("<text class=\"axis-label\" text-anchor=\"middle\" x=\"")
                .append(Html.coord(LEFT + (WIDTH - LEFT - RIGHT) / 2.0)).append("\" y=\"").append(HEIGHT - BOTTOM + 34)
                .append("\">").append(Html.text(xLabel)).append("</text>");
        svg.append("<text class=\"axis-label\" text-anchor=\"middle\" transform=\"translate(12,")
                .append(Html.coord(TOP + (HEIGHT - TOP - BOTTOM) / 2.0)).append(") rotate(-90)\">")
                .append(Html.text(yLabel)).append("</text>");
    }

    /** About five round tick values (1, 2 or 5 × 10^k apart) inside the range. */
    static List<Double> ticks(Range range) {
        double raw = (range.max() - range.min()) / 5;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        return ticksApart(range, magnitude * (raw / magnitude >= 5 ? 5 : raw / magnitude >= 2 ? 2 : 1));
    }

    /**
     * About four tick values a power of two apart (…, 256 MiB, 512 MiB, 1 GiB, …) inside the range, so bytes written
     * in binary units read 512 MiB, 1 GiB, 1.5 GiB rather than 190.7 MiB, 381.5 MiB.
     */
    static List<Double> binaryTicks(Range range) {
        double raw = (range.max() - range.min()) / 5;
        if (!(raw > 0)) {
            return ticks(range);
        }
        return ticksApart(range, Math.pow(2, Math.ceil(Math.log(raw) / Math.log(2))));
    }

    private static List<Double> ticksApart(Range range, double step) {
        List<Double> out = new ArrayList<>();
        for (double t = Math.ceil(range.min() / step) * step; t <= range.max() + step * 1e-9; t += step) {
            out.add(Math.abs(t) < step * 1e-9 ? 0 : t);
        }
        return out;
    }

    private double px(double value) {
        return LEFT + clamp(x.fraction(value)) * (WIDTH - LEFT - RIGHT);
    }

    private double py(double value) {
        return HEIGHT - BOTTOM - clamp(y.fraction(value)) * (HEIGHT - TOP - BOTTOM);
    }

    /** Values outside a shared axis are drawn at its edge rather than outside the chart. */
    private static double clamp(double fraction) {
        return Math.max(0, Math.min(1, fraction));
    }
}
