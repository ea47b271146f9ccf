package dev.gsym.internal.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Forked tasks and ScopedPool: taken back, waited for, cancelled; no thread left behind. */
class ForkedTest {
  @Test
  void joinRunsTheBodyHereWhenTheExecutorHasNotStartedIt() {
    List<Runnable> queued = new ArrayList<>();
    AtomicInteger runs = new AtomicInteger();
    Forked<Thread> f = Forked.fork(queued::add, () -> {
      runs.incrementAndGet();
      return Thread.currentThread();
    });
    assertThat(f.join()).isSameAs(Thread.currentThread());
    queued.forEach(Runnable::run); // the executor's turn comes late: nothing runs twice
    assertThat(runs.get()).isEqualTo(1);
    assertThat(f.join()).isSameAs(Thread.currentThread());
  }

  @Test
  void joinWaitsForTheBodyRunningElsewhereAndRethrows() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    try (ScopedPool pool = new ScopedPool(1, "test")) {
      Forked<String> f = Forked.fork(pool, () -> {
        started.countDown();
        Thread.sleep(100);
        throw new IllegalStateException("boom");
      });
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      assertThatThrownBy(f::join).isInstanceOf(IllegalStateException.class).hasMessage("boom");
      assertThat(f.cancelOrAwait()).isTrue();
    }
  }

  @Test
  void cancelOrAwaitCancelsABodyNotStarted() {
    List<Runnable> queued = new ArrayList<>();
    AtomicInteger runs = new AtomicInteger();
    Forked<Integer> f = Forked.fork(queued::add, runs::incrementAndGet);
    assertThat(f.cancelOrAwait()).isFalse();
    queued.forEach(Runnable::run);
    assertThat(runs.get()).isZero();
    assertThatThrownBy(f::join).isInstanceOf(IllegalStateException.class).hasMessage("cancelled");
  }

  @Test
  void scopedPoolThreadsHaveEndedWhenItIsClosed() throws Exception {
    List<Thread> seen = new ArrayList<>();
    CountDownLatch release = new CountDownLatch(1);
    ScopedPool pool = new ScopedPool(3, "test-scoped");
    for (int i = 0; i < 5; i++) {
      pool.execute(() -> {
        synchronized (seen) {
          seen.add(Thread.currentThread());
        }
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          // shutdownNow interrupts: end early
        }
      });
    }
    release.countDown();
    pool.close();
    synchronized (seen) {
      assertThat(seen).isNotEmpty().allSatisfy(t -> assertThat(t.isAlive()).isFalse());
    }
    assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("test-scoped"));
  }
}
