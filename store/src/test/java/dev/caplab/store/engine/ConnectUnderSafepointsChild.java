package dev.caplab.store.engine;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Path;

/**
 * Child JVM for {@link ChdbEngineIT}: opens {@code args[1]} extra chDB connections on the data dir {@code args[0]}
 * while two threads run compiled code that allocates and a third forces GCs every 2 ms, so safepoints (which the
 * JVM reaches through SIGSEGV) fall inside chdb_connect. Prints whether libjsig is preloaded and, if it lives, how
 * many connections it opened.
 */
public final class ConnectUnderSafepointsChild {

    private static volatile long sink;

    private ConnectUnderSafepointsChild() {
    }

    public static void main(String[] args) throws Throwable {
        System.out.println("signalChaining=" + ChdbEngine.signalChaining());
        Path dir = Path.of(args[0]);
        int connects = Integer.parseInt(args[1]);
        ChdbEngine engine = ChdbEngine.open(ChdbLibrary.locate(), dir);
        Field loaded = ChdbEngine.class.getDeclaredField("loaded");
        loaded.setAccessible(true);
        Object chdb = loaded.get(null);
        Method rawConnect = ChdbEngine.class.getDeclaredMethod("rawConnect", ChdbNative.class, Path.class);
        rawConnect.setAccessible(true);
        for (int t = 0; t < 2; t++) {
            Thread.ofPlatform().daemon().start(() -> {
                long x = 1;
                while (true) {
                    for (int i = 0; i < 1000; i++) {
                        x = x * 31 + i;
                    }
                    sink = x + new byte[1024].length;
                }
            });
        }
        Thread.ofPlatform().daemon().start(() -> {
            while (true) {
                System.gc();
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        for (int i = 0; i < connects; i++) {
            MemorySegment connection = (MemorySegment) rawConnect.invoke(null, chdb, engine.dataDir());
            if (connection.equals(MemorySegment.NULL)) {
                throw new IllegalStateException("connection " + i + " failed");
            }
        }
        System.out.println("opened " + connects);
        System.out.flush();
        // the extra connections are not closed: the process ends here, as a crash would have ended it earlier
        Runtime.getRuntime().halt(0);
    }
}
