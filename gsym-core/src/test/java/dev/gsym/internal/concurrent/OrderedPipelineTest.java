package dev.gsym.internal.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** OrderedPipeline: order, bounds on items in flight and on threads, failures, close. */
class OrderedPipelineTest {
  /** Squares items with uneven delays; records consumption order and how many ran at once. */
  private static final class Squares implements OrderedPipeline.Stage<Integer, Long> {
    final List<Long> out = new ArrayList<>();
    final List<Integer> onOwner = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger concurrent = new AtomicInteger();
    final AtomicInteger maxConcurrent = new AtomicInteger();
    final Thread owner = Thread.currentThread();
    int failAt = -1;

    @Override
    public Long compute(Integer i) {
      int now = concurrent.incrementAndGet();
      maxConcurrent.accumulateAndGet(now, Math::max);
      try {
        LockSupport.parkNanos((i * 7919L % 13) * 50_000L);
        if (i == failAt) throw new IllegalArgumentException("item " + i);
        return (long) i * i;
      } finally {
        concurrent.decrementAndGet();
      }
    }

    @Override
    public void consume(Integer i, Long r) {
      assertThat(Thread.currentThread()).isSameAs(owner);
      out.add(r);
    }

    @Override
    public void computeAndConsume(Integer i) {
      onOwner.add(i);
      OrderedPipeline.Stage.super.computeAndConsume(i);
    }
  }

  private static List<Long> squares(int n) {
    List<Long> l = new ArrayList<>();
    for (long i = 0; i < n; i++) l.add(i * i);
    return l;
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3, 8})
  void consumesInSubmissionOrderForAnyWorkerCount(int workers) {
    Squares s = new Squares();
    try (ScopedPool pool = new ScopedPool(Math.max(1, workers), "test");
        OrderedPipeline<Integer, Long> p = new OrderedPipeline<>(pool, workers, 4, s)) {
      for (int i = 0; i < 300; i++) p.submit(i);
      p.drain();
    }
    assertThat(s.out).isEqualTo(squares(300));
    // the workers plus the owner, never more
    assertThat(s.maxConcurrent.get()).isLessThanOrEqualTo(workers + 1);
    if (workers == 0) assertThat(s.onOwner).hasSize(300);
  }

  @Test
  void neverMoreThanWindowItemsInFlight() {
    AtomicInteger submitted = new AtomicInteger();
    AtomicInteger consumed = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    OrderedPipeline.Stage<Integer, Integer> stage = new OrderedPipeline.Stage<>() {
      @Override
      public Integer compute(Integer i) {
        return i;
      }

      @Override
      public void consume(Integer i, Integer r) {
        consumed.incrementAndGet();
      }
    };
    try (ScopedPool pool = new ScopedPool(4, "test"); var p = new OrderedPipeline<>(pool, 4, 8, stage)) {
      for (int i = 0; i < 1000; i++) {
        p.submit(i);
        // consumed changes on this thread only: exact count of items submitted and not consumed
        maxInFlight.accumulateAndGet(submitted.incrementAndGet() - consumed.get(), Math::max);
      }
      p.drain();
    }
    assertThat(consumed.get()).isEqualTo(1000);
    assertThat(maxInFlight.get()).isBetween(1, 8);
  }

  @Test
  void ownerComputesEverythingWhenTheExecutorNeverRuns() {
    List<Runnable> parked = new ArrayList<>();
    Executor never = parked::add; // accepts and never runs
    Squares s = new Squares();
    try (var p = new OrderedPipeline<>(never, 2, 3, s)) {
      for (int i = 0; i < 20; i++) p.submit(i);
      p.drain();
    }
    assertThat(s.out).isEqualTo(squares(20));
    assertThat(s.onOwner).hasSize(20);
    // worker tasks started after close do nothing
    for (Runnable r : parked) r.run();
    assertThat(s.out).hasSize(20);
  }

  @Test
  void rejectingExecutorLeavesTheWorkToTheOwner() {
    Executor rejecting = r -> {
      throw new RejectedExecutionException("full");
    };
    Squares s = new Squares();
    try (var p = new OrderedPipeline<>(rejecting, 3, 2, s)) {
      for (int i = 0; i < 10; i++) p.submit(i);
      p.drain();
    }
    assertThat(s.out).isEqualTo(squares(10));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 3})
  void failureIsRethrownInOrderAfterTheItemsBeforeIt(int workers) {
    Squares s = new Squares();
    s.failAt = 37;
    try (ScopedPool pool = new ScopedPool(Math.max(1, workers), "test");
        OrderedPipeline<Integer, Long> p = new OrderedPipeline<>(pool, workers, 5, s)) {
      assertThatThrownBy(() -> {
        for (int i = 0; i < 100; i++) p.submit(i);
        p.drain();
      }).isInstanceOf(IllegalArgumentException.class).hasMessage("item 37");
    }
    assertThat(s.out).isEqualTo(squares(37));
  }

  @Test
  void closeWaitsForRunningItemsAndDropsWaitingOnes() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger computed = new AtomicInteger();
    AtomicInteger finished = new AtomicInteger();
    OrderedPipeline.Stage<Integer, Integer> stage = new OrderedPipeline.Stage<>() {
      @Override
      public Integer compute(Integer i) {
        computed.incrementAndGet();
        if (i == 0) {
          started.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        finished.incrementAndGet();
        return i;
      }

      @Override
      public void consume(Integer i, Integer r) {}
    };
    try (ScopedPool pool = new ScopedPool(1, "test")) {
      var p = new OrderedPipeline<>(pool, 1, 10, stage);
      p.submit(0);
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      for (int i = 1; i < 5; i++) p.submit(i);
      Thread closer = Thread.ofPlatform().start(p::close);
      closer.join(200);
      assertThat(closer.isAlive()).as("close waits for the running item").isTrue();
      release.countDown();
      closer.join(10_000);
      assertThat(closer.isAlive()).isFalse();
      assertThat(finished.get()).isEqualTo(computed.get());
      int after = computed.get();
      Thread.sleep(50);
      assertThat(computed.get()).as("nothing is computed after close").isEqualTo(after).isLessThan(5);
      assertThatThrownBy(() -> p.submit(9)).isInstanceOf(IllegalStateException.class);
    }
  }

  /** With helpAhead the owner computes a later item while the oldest is stuck on a worker; without, it waits. */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void ownerHelpsAheadOnlyWhenAsked(boolean helpAhead) throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    Thread owner = Thread.currentThread();
    AtomicInteger onOwnerBeforeRelease = new AtomicInteger();
    OrderedPipeline.Stage<Integer, Integer> stage = new OrderedPipeline.Stage<>() {
      @Override
      public Integer compute(Integer i) {
        if (i == 0) {
          started.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        } else if (Thread.currentThread() == owner && release.getCount() > 0) {
          onOwnerBeforeRelease.incrementAndGet();
        }
        return i;
      }

      @Override
      public void consume(Integer i, Integer r) {}
    };
    List<Integer> order = new ArrayList<>();
    try (ScopedPool pool = new ScopedPool(1, "test");
        var p = new OrderedPipeline<>(pool, 1, 4, helpAhead, new OrderedPipeline.Stage<Integer, Integer>() {
          @Override
          public Integer compute(Integer i) {
            return stage.compute(i);
          }

          @Override
          public void consume(Integer i, Integer r) {
            order.add(r);
          }
        })) {
      p.submit(0);
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      for (int i = 1; i < 4; i++) p.submit(i);
      Thread.ofPlatform().start(() -> {
        LockSupport.parkNanos(200_000_000L);
        release.countDown();
      });
      p.drain();
    }
    assertThat(order).containsExactly(0, 1, 2, 3);
    if (helpAhead) assertThat(onOwnerBeforeRelease.get()).isEqualTo(3);
    else assertThat(onOwnerBeforeRelease.get()).isZero();
  }

  @Test
  void badArguments() {
    Squares s = new Squares();
    assertThatThrownBy(() -> new OrderedPipeline<>(Runnable::run, -1, 1, s)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OrderedPipeline<>(Runnable::run, 1, 0, s)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OrderedPipeline<>(null, 1, 1, s)).isInstanceOf(NullPointerException.class);
  }
}
