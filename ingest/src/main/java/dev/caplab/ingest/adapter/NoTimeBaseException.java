package dev.caplab.ingest.adapter;

/** A file whose rows carry no time and for which none can be derived: refused whole, naming how to give one. */
public final class NoTimeBaseException extends IllegalArgumentException {

    public NoTimeBaseException(String file, String howToGiveOne) {
        super(file + ": its rows carry no time and none can be derived: " + howToGiveOne);
    }
}
