package dev.caplab.ingest.adapter;

/** Creates a format's adapter from its options; throws {@link BadOptionException} for options it does not take. */
@FunctionalInterface
public interface AdapterFactory {

    Adapter create(AdapterOptions options);
}
