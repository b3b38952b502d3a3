package dev.caplab.sampler;

/** A /proc or cgroup file that could not be read or does not hold what the kernel documents. */
public final class ProcFileException extends RuntimeException {

    private final String file;
    private final String field;

    public ProcFileException(String file, String field, String reason) {
        super(file + ": " + reason);
        this.file = file;
        this.field = field;
    }

    public String file() {
        return file;
    }

    public String field() {
        return field;
    }
}
