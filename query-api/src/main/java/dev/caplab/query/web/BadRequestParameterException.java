package dev.caplab.query.web;

/** A request parameter the API cannot use, with the parameter's name and the offending value. */
public final class BadRequestParameterException extends RuntimeException {

    private final String parameter;

    public BadRequestParameterException(String parameter, Object value, String why) {
        super("parameter '" + parameter + "' = '" + value + "': " + why);
        this.parameter = parameter;
    }

    public String parameter() {
        return parameter;
    }
}
