package dev.caplab.query;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application tests boot: the query API alone, as {@code caplab up} imports it. */
@SpringBootApplication
public class QueryApiTestApplication {
}
