# One image for every caplab role; compose picks the role with the command (serve, streams, sink, migrate).
FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -DskipTests install

FROM eclipse-temurin:25-jre
RUN useradd --system --home /var/lib/caplab caplab && mkdir -p /var/lib/caplab && chown caplab /var/lib/caplab
COPY --from=build /src/app/target/caplab-exec.jar /opt/caplab/caplab.jar
COPY --from=build /src/app/src/main/jvm/caplab.jvmopts /opt/caplab/caplab.jvmopts
# chDB resets the JVM's SIGSEGV handler while it opens a connection: the JVM's signal-chaining library keeps it
ENV LD_PRELOAD=/opt/java/openjdk/lib/libjsig.so
USER caplab
WORKDIR /var/lib/caplab
ENTRYPOINT ["java", "@/opt/caplab/caplab.jvmopts", "-jar", "/opt/caplab/caplab.jar"]
CMD ["--help"]
