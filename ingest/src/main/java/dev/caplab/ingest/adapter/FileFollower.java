package dev.caplab.ingest.adapter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.Objects;

/**
 * Follows a file that another process appends to, like {@code tail -F}: only complete lines are handed on (a
 * line being written is held back until its newline arrives); a file that shrinks was truncated and is read again
 * from the start; a file replaced under the same name (rotation) is finished first, then the new one is read.
 * Both restart the line numbers, and the listener is told, so it can start a fresh parser for the new header.
 */
public final class FileFollower implements AutoCloseable {

    /** Receives the lines and the restarts. */
    public interface Listener {
        void line(InputLine line);

        void restarted(String reason);
    }

    private final Path path;
    private final Clock clock;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private FileChannel channel;
    private Object fileKey;
    private long position;
    private long lineNumber;

    public FileFollower(Path path, Clock clock) {
        this.path = Objects.requireNonNull(path, "path");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Reads whatever was appended since the last poll; answers how many lines were handed on. */
    public int poll(Listener listener) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return 0; // not written yet, or between rotation's rename and create
        }
        int lines = 0;
        if (channel != null && !Objects.equals(fileKey, attributes.fileKey())) {
            lines += readToEnd(listener);
            lines += flushPartial(listener);
            close();
            listener.restarted(path + " was replaced (rotated)");
        } else if (channel != null && attributes.size() < position) {
            partial.reset();
            position = 0;
            lineNumber = 0;
            listener.restarted(path + " was truncated");
        }
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.READ);
            fileKey = attributes.fileKey();
            position = 0;
            lineNumber = 0;
        }
        return lines + readToEnd(listener);
    }

    /** The input is over: hands on a last line that never got its newline (it may be incomplete). */
    public int flushPartial(Listener listener) {
        if (partial.size() == 0) {
            return 0;
        }
        emit(listener);
        return 1;
    }

    private int readToEnd(Listener listener) throws IOException {
        int lines = 0;
        while (true) {
            buffer.clear();
            int read = channel.read(buffer, position);
            if (read <= 0) {
                return lines;
            }
            position += read;
            byte[] bytes = buffer.array();
            int start = 0;
            for (int i = 0; i < read; i++) {
                if (bytes[i] == '\n') {
                    partial.write(bytes, start, i - start);
                    emit(listener);
                    lines++;
                    start = i + 1;
                }
            }
            partial.write(bytes, start, read - start);
        }
    }

    private void emit(Listener listener) {
        // decode whole lines only, so a multi-byte character split across two reads stays intact
        String text = partial.toString(StandardCharsets.UTF_8);
        partial.reset();
        if (text.endsWith("\r")) {
            text = text.substring(0, text.length() - 1);
        }
        listener.line(new InputLine(++lineNumber, text, clock.instant(), true));
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
