package dev.caplab.store.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One node of ClickHouse's {@code EXPLAIN AST} output: its type ({@code Function}, {@code TableIdentifier}…), the
 * name printed after it (function, table or column name; the value of a literal) and its children.
 *
 * @param line the 1-based line of the dump, for messages
 */
record AstNode(String type, String name, List<AstNode> children, int line) {

    // "<indent><Type>[ <name>][ (alias a)|(column c)]...[ (children N)]"; names print raw, so a name ends at " (".
    private static final Pattern CHILDREN = Pattern.compile("(?:^| )\\(children (\\d+)\\)$");

    AstNode {
        children = List.copyOf(children);
    }

    /**
     * Parses the dump one node a line, one space of indent a level, and checks every {@code (children N)} against
     * the lines beneath: a dump this parser does not read exactly is refused, never half-read.
     */
    static AstNode parse(List<String> lines) {
        List<String> significant = lines.stream().filter(l -> !l.isBlank()).toList();
        if (significant.isEmpty()) {
            throw new StatementRefusedException("ClickHouse returned no syntax tree for the statement");
        }
        int[] at = {0};
        AstNode root = node(significant, at, 0);
        if (at[0] != significant.size()) {
            throw unreadable(at[0] + 1, significant.get(at[0]), "a second root");
        }
        return root;
    }

    private static AstNode node(List<String> lines, int[] at, int depth) {
        int index = at[0];
        String text = lines.get(index);
        if (indentOf(text) != depth || text.length() == depth) {
            throw unreadable(index + 1, text, "indent " + depth + " expected");
        }
        at[0]++;
        String body = text.substring(depth);
        int space = body.indexOf(' ');
        String type = space < 0 ? body : body.substring(0, space);
        String rest = space < 0 ? "" : body.substring(space + 1);
        boolean literal = type.equals("Literal");
        int declared = 0;
        Matcher count = CHILDREN.matcher(rest);
        if (!literal && count.find()) {
            declared = Integer.parseInt(count.group(1));
            rest = rest.substring(0, count.start());
        }
        List<AstNode> children = new ArrayList<>();
        while (at[0] < lines.size() && indentOf(lines.get(at[0])) > depth) {
            children.add(node(lines, at, depth + 1));
        }
        if (children.size() != declared) {
            throw unreadable(index + 1, text, declared + " children declared, " + children.size() + " found");
        }
        return new AstNode(type, literal ? rest : nameOf(rest), children, index + 1);
    }

    /** The printed name without the {@code (alias …)} / {@code (column …)} suffixes that follow it. */
    private static String nameOf(String rest) {
        int suffix = rest.indexOf(" (");
        if (rest.startsWith("(")) {
            return "";
        }
        return suffix < 0 ? rest : rest.substring(0, suffix);
    }

    private static int indentOf(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    private static StatementRefusedException unreadable(int line, String text, String why) {
        return new StatementRefusedException("cannot read ClickHouse's syntax tree at line " + line + " (" + why + "): "
                + text.strip());
    }
}
