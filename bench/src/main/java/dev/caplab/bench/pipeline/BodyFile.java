package dev.caplab.bench.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Request bodies kept outside the heap and outside the JVM's direct-memory limit: memory-mapped chunks of temporary
 * files. The bench runs in the stack's JVM, which is measured with the default direct limit (as large as the heap);
 * native segments ({@code Arena.allocate}) count against that limit, mapped files do not, so the bodies (about
 * 220 bytes a line) neither crowd the stack's heap nor its direct buffers. Each chunk's file is deleted as soon as it
 * is mapped; its pages are unmapped when no body in it is reachable any more.
 */
final class BodyFile {

    private static final long CHUNK_BYTES = 64L << 20;
    /** Memory-backed where the system has it, so the bodies are not written out to disk. */
    private static final Path DIR = Files.isDirectory(Path.of("/dev/shm")) && Files.isWritable(Path.of("/dev/shm"))
            ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
    private static MemorySegment chunk;
    private static long used;

    private BodyFile() {
    }

    /** A read-only view of a copy of {@code body} in a mapped chunk. */
    static synchronized MemorySegment copyOf(byte[] body) {
        if (chunk == null || used + body.length > chunk.byteSize()) {
            chunk = map(Math.max(CHUNK_BYTES, body.length));
            used = 0;
        }
        MemorySegment slice = chunk.asSlice(used, body.length);
        slice.copyFrom(MemorySegment.ofArray(body));
        used += body.length;
        return slice.asReadOnly();
    }

    private static MemorySegment map(long bytes) {
        try {
            Path file = Files.createTempFile(DIR, "caplab-bench-bodies", ".bin");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, Arena.ofAuto());
            } finally {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map a chunk of " + bytes + " bytes for request bodies", e);
        }
    }
}
