package dev.caplab.query.web;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** RFC 9457 problem details with stable type URIs, so clients branch on {@code type} rather than on text. */
public final class Problems {

    public static final String TYPE_BASE = "https://caplab.dev/problems/";

    private Problems() {
    }

    public static ProblemDetail of(HttpStatus status, String type, String title, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(TYPE_BASE + type));
        body.setTitle(title);
        return body;
    }
}
