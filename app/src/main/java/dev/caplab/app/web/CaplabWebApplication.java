package dev.caplab.app.web;

import dev.caplab.ingest.http.IngestHttpConfiguration;
import dev.caplab.query.QueryApiConfiguration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** The one Spring Boot application on the HTTP port: HTTP ingest, the query API and the web page, plus health. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import({IngestHttpConfiguration.class, QueryApiConfiguration.class, HealthController.class})
public class CaplabWebApplication {
}
