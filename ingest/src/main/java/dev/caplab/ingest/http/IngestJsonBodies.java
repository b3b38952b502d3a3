package dev.caplab.ingest.http;

import java.util.List;
import org.springframework.core.ResolvableType;
import org.springframework.http.MediaType;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the JSON bodies of the ingest endpoints whatever {@code Content-Type} the client sent: {@code curl
 * --data-binary @run.json} sends {@code application/x-www-form-urlencoded}, other tools {@code text/plain} or none,
 * and a 415 for a body caplab can read helps nobody. Limited to ingest's own request types, read only, and consulted
 * after the standard converters, so {@code application/json} and every other endpoint behave as before. Browsers'
 * cross-site "simple" requests this admits are refused by the origin check.
 */
final class IngestJsonBodies extends JacksonJsonHttpMessageConverter {

    private static final String INGEST_PACKAGE = "dev.caplab.ingest";

    IngestJsonBodies(JsonMapper mapper) {
        super(mapper);
        setSupportedMediaTypes(List.of(MediaType.ALL));
    }

    @Override
    public boolean canRead(ResolvableType type, MediaType mediaType) {
        Class<?> target = type.toClass();
        return target.getPackageName().startsWith(INGEST_PACKAGE) && super.canRead(type, mediaType);
    }

    @Override
    public boolean canWrite(ResolvableType type, Class<?> valueClass, MediaType mediaType) {
        return false;
    }
}
