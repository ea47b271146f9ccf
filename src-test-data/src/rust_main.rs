//! Small no_std Rust program for the golden tests: plain functions, #[inline(always)] helpers,
//! generics (monomorphized twice), a trait with two impls, a module, and a closure.
#![no_std]
#![no_main]

use core::panic::PanicInfo;

mod shapes {
    pub trait Area {
        fn area(&self) -> u64;
    }
    pub struct Square(pub u64);
    pub struct Rect(pub u64, pub u64);
    impl Area for Square {
        #[inline(never)]
        fn area(&self) -> u64 {
            self.0 * self.0
        }
    }
    impl Area for Rect {
        #[inline(never)]
        fn area(&self) -> u64 {
            self.0 * self.1
        }
    }
}

use shapes::Area;

#[inline(always)]
fn leaf(x: u64) -> u64 {
    if x > 100 { x / 3 } else { x * 5 + 1 }
}

#[inline(always)]
fn middle(x: u64) -> u64 {
    let r = leaf(x);
    if r & 1 == 1 { r + leaf(r + 7) } else { r + 2 }
}

#[inline(never)]
fn outer(x: u64) -> u64 {
    middle(x) * middle(x ^ 0x55)
}

#[inline(never)]
fn sum_all<T: Copy + Into<u64>>(items: &[T]) -> u64 {
    let mut total = 0u64;
    for &i in items {
        total = total.wrapping_add(leaf(i.into()));
    }
    total
}

#[inline(never)]
fn total_area(shapes: &[&dyn Area]) -> u64 {
    shapes.iter().map(|s| s.area()).fold(0, |a, b| a.wrapping_add(b))
}

#[inline(never)]
fn apply<F: Fn(u64) -> u64>(f: F, x: u64) -> u64 {
    f(x) + 1
}

#[no_mangle]
pub extern "C" fn _start() -> ! {
    let seed = unsafe { core::ptr::read_volatile(&7u64) };
    let mut v = outer(seed);
    v += sum_all(&[1u8, 2, 3]);
    v += sum_all(&[seed as u32, 5]);
    let sq = shapes::Square(seed);
    let re = shapes::Rect(seed, 3);
    v += total_area(&[&sq, &re]);
    v += apply(|x| x * seed, v);
    unsafe { core::ptr::write_volatile(&mut v as *mut u64, v) };
    loop {}
}

#[panic_handler]
fn panic(_info: &PanicInfo) -> ! {
    loop {}
}
