package dev.caplab.ingest.census;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import java.io.IOException;

/**
 * Counts the values of a protobuf body on the wire, guided by its message descriptor, before it is parsed: a packed
 * field of a million one-byte varints (a histogram's zero buckets) is a few bytes per thousand values on the wire but
 * a million objects once parsed and expanded, so it is refused here ({@link TooManyValuesException}, naming the field
 * path, e.g. {@code timeseries[0].histograms[0].positive_deltas}) while nothing but the body is in memory. Reads
 * without allocating per value. Malformed wire data is left to the parser, which reports it.
 */
public final class ProtobufCensus {

    private final CensusLimits limits;

    public ProtobufCensus(CensusLimits limits) {
        this.limits = limits;
    }

    /** Counts {@code body} as a {@code type}; throws {@link TooManyValuesException} past a limit. */
    public void count(byte[] body, Descriptor type) {
        CodedInputStream in = CodedInputStream.newInstance(body);
        try {
            message(in, type, "", 0, new long[1]);
        } catch (InvalidProtocolBufferException e) {
            return; // not well-formed: the parser that follows names the problem
        } catch (IOException e) {
            throw new IllegalStateException("a byte array cannot fail to read", e);
        }
    }

    private void message(CodedInputStream in, Descriptor type, String path, int depth, long[] total)
            throws IOException {
        if (depth > limits.maxDepth()) {
            throw new TooManyValuesException(path, limits.depth());
        }
        int[] counts = new int[type.getFields().size()];
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                return;
            }
            FieldDescriptor field = type.findFieldByNumber(WireFormat.getTagFieldNumber(tag));
            int wireType = WireFormat.getTagWireType(tag);
            if (field == null) {
                in.skipField(tag);
                continue;
            }
            String fieldPath = path.isEmpty() ? field.getName() : path + "." + field.getName();
            if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                    && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                int index = field.isRepeated() ? add(counts, field, 1, fieldPath, total) - 1 : -1;
                int length = in.readRawVarint32();
                int outer = in.pushLimit(length);
                message(in, field.getMessageType(), index < 0 ? fieldPath : fieldPath + "[" + index + "]",
                        depth + 1, total);
                in.popLimit(outer);
            } else if (field.isRepeated() && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED
                    && field.isPackable()) {
                add(counts, field, packed(in, field), fieldPath, total);
            } else {
                if (field.isRepeated()) {
                    add(counts, field, 1, fieldPath, total);
                }
                in.skipField(tag);
            }
        }
    }

    /** Adds {@code n} values of {@code field}; returns its count so far in this message. */
    private int add(int[] counts, FieldDescriptor field, int n, String fieldPath, long[] total) {
        int i = field.getIndex();
        long count = (long) counts[i] + n;
        if (count > limits.maxValuesPerField()) {
            throw new TooManyValuesException(fieldPath, limits.perField());
        }
        total[0] += n;
        if (total[0] > limits.maxValuesPerRequest()) {
            throw new TooManyValuesException(fieldPath, limits.perRequest());
        }
        counts[i] = (int) count;
        return counts[i];
    }

    /** The number of values in a packed run, read past without decoding them. */
    private static int packed(CodedInputStream in, FieldDescriptor field) throws IOException {
        int length = in.readRawVarint32();
        switch (field.getLiteType().getWireType()) {
            case WireFormat.WIRETYPE_FIXED64 -> {
                in.skipRawBytes(length);
                return length / 8;
            }
            case WireFormat.WIRETYPE_FIXED32 -> {
                in.skipRawBytes(length);
                return length / 4;
            }
            default -> {
                // varints: one value ends at each byte without the continuation bit
                int values = 0;
                for (int i = 0; i < length; i++) {
                    if ((in.readRawByte() & 0x80) == 0) {
                        values++;
                    }
                }
                return values;
            }
        }
    }
}
