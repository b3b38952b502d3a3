package dev.caplab.store.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChdbLibraryTest {

    @Test
    void propertyBeatsEnvironmentBeatsCache(@TempDir Path dir) throws IOException {
        Path prop = Files.createFile(dir.resolve("prop.so"));
        Path env = Files.createFile(dir.resolve("env.so"));
        assertThat(ChdbLibrary.locate(Map.of("caplab.chdb.lib", prop.toString()), Map.of("CAPLAB_CHDB_LIB",
                env.toString()))).isEqualTo(prop);
        assertThat(ChdbLibrary.locate(Map.of(), Map.of("CAPLAB_CHDB_LIB", env.toString()))).isEqualTo(env);
    }

    @Test
    void theCacheFollowsTheFetchScriptsVariables(@TempDir Path dir) throws IOException {
        Path lib = dir.resolve("caplab/chdb/26.5.3/libchdb.so");
        Files.createDirectories(lib.getParent());
        Files.createFile(lib);
        assertThat(ChdbLibrary.locate(Map.of(), Map.of("XDG_CACHE_HOME", dir.toString()))).isEqualTo(lib);
        assertThat(ChdbLibrary.locate(Map.of(), Map.of("CAPLAB_CHDB_CACHE", dir.resolve("caplab/chdb").toString(),
                "XDG_CACHE_HOME", "/nowhere"))).isEqualTo(lib);
        assertThat(ChdbLibrary.locate(Map.of("user.home", dir.resolve("home").toString()), Map.of("XDG_CACHE_HOME",
                dir.toString()))).isEqualTo(lib);
    }

    @Test
    void aMissingLibraryNamesTheFetchCommand(@TempDir Path dir) {
        assertThatThrownBy(() -> ChdbLibrary.locate(Map.of(), Map.of("CAPLAB_CHDB_CACHE", dir.toString())))
                .isInstanceOf(EngineException.class).hasMessageContaining("bash scripts/fetch-chdb.sh")
                .hasMessageContaining(dir.resolve("26.5.3/libchdb.so").toString());
        assertThatThrownBy(() -> ChdbLibrary.locate(Map.of("caplab.chdb.lib", "/no/such.so"), Map.of()))
                .isInstanceOf(EngineException.class).hasMessageContaining("bash scripts/fetch-chdb.sh");
    }

    @Test
    void engineErrorsKeepTheirLeadingCode() {
        assertThat(ClickHouseException.fromEngineMessage("Code: 62. DB::Exception: Syntax error").code()).isEqualTo(62);
        assertThat(ClickHouseException.fromEngineMessage("something odd").code())
                .isEqualTo(ClickHouseException.UNKNOWN_CODE);
    }

    @Test
    void infileInsertPutsTheFileBeforeSettingsAndRefusesNonInserts() {
        Path file = Path.of("/tmp/x'y.data");
        assertThat(InfileInsert.statement("INSERT INTO t (a, b)", file, "RowBinary"))
                .isEqualTo("INSERT INTO t (a, b) FROM INFILE '/tmp/x\\'y.data' FORMAT RowBinary");
        assertThat(InfileInsert.statement("INSERT INTO t SETTINGS async_insert=0", file, "TSV"))
                .isEqualTo("INSERT INTO t FROM INFILE '/tmp/x\\'y.data' SETTINGS async_insert=0 FORMAT TSV");
        assertThatThrownBy(() -> InfileInsert.statement("DROP TABLE t", file, "TSV"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> InfileInsert.statement("INSERT INTO t", file, "TSV; DROP"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
