/**
 * Concurrency shared by the project's modules, not part of any API (exported only to the in-repo
 * modules): {@link dev.gsym.internal.concurrent.OrderedPipeline} (items computed on several threads,
 * consumed in submission order, bounded in flight), {@link dev.gsym.internal.concurrent.Forked}
 * (overlapping work the forking thread can take back) and {@link
 * dev.gsym.internal.concurrent.ScopedPool} (a pool whose threads have all ended when it is closed).
 */
package dev.gsym.internal.concurrent;
