package dev.caplab.store.access;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;

/** An in-memory RowBinary body that is sent without copying the bytes once more. */
final class RowBinaryBuffer extends ByteArrayOutputStream {

    RowBinaryBuffer(int initialBytes) {
        super(initialBytes);
    }

    InputStream asInputStream() {
        return new ByteArrayInputStream(buf, 0, count);
    }
}
