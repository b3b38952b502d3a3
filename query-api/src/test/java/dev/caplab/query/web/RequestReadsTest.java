package dev.caplab.query.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

class RequestReadsTest {

    private final AtomicInteger reads = new AtomicInteger();

    @AfterEach
    void noRequest() {
        RequestContextHolder.resetRequestAttributes();
    }

    private List<String> read(String what) {
        reads.incrementAndGet();
        return List.of(what + reads.get());
    }

    private static void newRequest() {
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(new MockHttpServletRequest()));
    }

    @Test
    void oneRequestReadsOnceAndEveryAskerGetsTheSameRows() {
        newRequest();
        List<String> first = RequestReads.SCOPE.once("steps", List.of("run-1"), () -> read("a"));
        List<String> again = RequestReads.SCOPE.once("steps", List.of("run-1"), () -> read("b"));
        assertThat(again).isSameAs(first).containsExactly("a1");
        assertThat(reads).hasValue(1);
    }

    @Test
    void anotherKeyAnotherReadOrAnotherRequestReadsAgain() {
        newRequest();
        RequestReads.SCOPE.once("steps", List.of("run-1"), () -> read("a"));
        RequestReads.SCOPE.once("steps", List.of("run-2"), () -> read("a"));
        RequestReads.SCOPE.once("fits", List.of("run-1"), () -> read("a"));
        RequestReads.SCOPE.once("fits", List.of("run-1", Optional.of("cpu")), () -> read("a"));
        assertThat(reads).hasValue(4);
        newRequest();
        assertThat(RequestReads.SCOPE.once("steps", List.of("run-1"), () -> read("a"))).containsExactly("a5");
    }

    @Test
    void withoutARequestEveryReadGoesToTheStore() {
        RequestReads.SCOPE.once("steps", List.of("run-1"), () -> read("a"));
        RequestReads.SCOPE.once("steps", List.of("run-1"), () -> read("a"));
        RequestReads.SCOPE.keep("run", List.of("run-1"), Optional.empty());
        assertThat(reads).hasValue(2);
        assertThat((Object) RequestReads.SCOPE.kept("run", List.of("run-1"))).isNull();
    }

    @Test
    void aReadMayMakeReadsOfItsOwnAndWhatWasKeptIsFoundByItsKey() {
        newRequest();
        List<String> outer = RequestReads.SCOPE.once("detail", List.of("run-1"),
                () -> RequestReads.SCOPE.once("steps", List.of("run-1"), () -> read("inner")));
        assertThat(outer).containsExactly("inner1");
        assertThat((Object) RequestReads.SCOPE.kept("steps", List.of("run-1"))).isEqualTo(List.of("inner1"));
        RequestReads.SCOPE.keep("run", List.of("run-2"), Optional.empty());
        assertThat((Object) RequestReads.SCOPE.kept("run", List.of("run-2"))).isEqualTo(Optional.empty());
        assertThat((Object) RequestReads.SCOPE.kept("run", List.of("run-3"))).isNull();
    }
}
