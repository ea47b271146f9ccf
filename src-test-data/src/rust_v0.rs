// Rust program whose symbols use the v0 mangling (built with -C symbol-mangling-version=v0 by
// gsym-demangle's LlvmCxxfiltDifferentialTest and src-test-data/demangle/regenerate.sh): each
// item below makes rustc emit a name with one feature of the v0 grammar.
#![allow(dead_code, non_snake_case, uncommon_codepoints, mixed_script_confusables)]

use std::collections::HashMap;
use std::fmt;

pub trait Shape {
    fn area(&self) -> f64;
    fn scaled(&self, k: f64) -> Box<dyn Shape>;
}

pub struct Rect<T> {
    w: T,
    h: T,
}

pub struct Grid<const N: usize, const FLAG: bool, const C: char> {
    cells: [u8; N],
}

pub struct Wrapper<'a, T: ?Sized>(&'a T);

impl<T: Copy + Into<f64>> Shape for Rect<T> {
    #[inline(never)]
    fn area(&self) -> f64 {
        self.w.into() * self.h.into()
    }
    #[inline(never)]
    fn scaled(&self, k: f64) -> Box<dyn Shape> {
        Box::new(Rect { w: self.w.into() * k, h: self.h.into() * k })
    }
}

impl<T: fmt::Debug> fmt::Display for Rect<T> {
    #[inline(never)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}x{:?}", self.w, self.h)
    }
}

impl<const N: usize, const FLAG: bool, const C: char> Grid<N, FLAG, C> {
    #[inline(never)]
    pub fn new() -> Self {
        Grid { cells: [C as u8; N] }
    }
    #[inline(never)]
    pub fn count(&self) -> usize {
        if FLAG { self.cells.len() } else { 0 }
    }
}

impl<'a, T: ?Sized + fmt::Debug> Wrapper<'a, T> {
    #[inline(never)]
    pub fn show(&self) -> String {
        format!("{:?}", self.0)
    }
}

#[inline(never)]
pub fn apply<F: Fn(i32) -> i32>(f: F, x: i32) -> i32 {
    f(x)
}

#[inline(never)]
pub fn higher_ranked(f: for<'a> fn(&'a u8) -> &'a u8, x: &u8) -> u8 {
    *f(x)
}

#[inline(never)]
pub fn first<'a>(x: &'a u8) -> &'a u8 {
    x
}

#[inline(never)]
pub fn tuples(t: (u8, i16, u32, i64, u128, isize), one: (char,), unit: ()) -> usize {
    let _ = (one, unit);
    t.0 as usize + t.5 as usize
}

#[inline(never)]
pub fn pointers(a: *const u8, b: *mut i8, s: &[u16], m: &mut [i32; 3], st: &str) -> usize {
    let _ = (a, b);
    s.len() + m.len() + st.len()
}

#[inline(never)]
pub unsafe extern "C" fn c_callback(x: i32) -> i32 {
    x + 1
}

#[inline(never)]
pub fn takes_fn_ptrs(f: unsafe extern "C" fn(i32) -> i32, g: fn(f32, f64) -> bool) -> i32 {
    let _ = g;
    unsafe { f(1) }
}

#[inline(never)]
pub fn dyn_objects(a: &dyn Shape, b: &(dyn Fn(u8) -> u8 + Send + Sync), c: Box<dyn Iterator<Item = u64> + 'static>) -> f64 {
    let _ = (b, c);
    a.area()
}

#[inline(never)]
pub fn never_returns() -> ! {
    panic!("never")
}

#[inline(never)]
pub fn grüße(x: u32) -> u32 {
    x * 2
}

#[inline(never)]
pub fn 计算(x: u32) -> u32 {
    x + 3
}

/// Instantiated with exotic types, so that they appear in symbol names as generic arguments.
#[inline(never)]
pub fn sink<T: ?Sized>() -> usize {
    std::mem::size_of::<&T>()
}

mod inner {
    pub mod deeper {
        #[inline(never)]
        pub fn generic_in_module<T: Default + std::fmt::Debug>() -> String {
            format!("{:?}", T::default())
        }
    }
}

pub fn main() {
    let r = Rect { w: 3u8, h: 4u8 };
    let boxed = r.scaled(2.0);
    let g = Grid::<4, true, 'x'>::new();
    let g2 = Grid::<2, false, '\u{1F600}'>::new();
    let w = Wrapper(&[1u8, 2, 3][..]);
    let mut m = [1, 2, 3];
    let mut map: HashMap<String, Vec<Option<(u8, char)>>> = HashMap::new();
    map.insert("k".to_string(), vec![Some((1, 'a'))]);
    let closure_captures = 10;
    let total = apply(|x| x + closure_captures, 5)
        + apply(move |x| x * closure_captures, 6)
        + higher_ranked(first, &7) as i32
        + tuples((1, 2, 3, 4, 5, 6), ('z',), ()) as i32
        + pointers(std::ptr::null(), std::ptr::null_mut(), &[1, 2], &mut m, "str") as i32
        + takes_fn_ptrs(c_callback, |a, b| (a as f64) < b)
        + grüße(2) as i32
        + 计算(3) as i32
        + g.count() as i32
        + g2.count() as i32
        + map.len() as i32;
    let it: Box<dyn Iterator<Item = u64>> = Box::new((0..3u64).map(|x| x * 2));
    let area = dyn_objects(&r, &|x| x, it) + boxed.area();
    println!("{} {} {} {} {}", total, area, r, w.show(), inner::deeper::generic_in_module::<Vec<i128>>());
    let sinks = sink::<for<'a> fn(&'a u8) -> &'a u8>()
        + sink::<for<'a, 'b> fn(&'a u8, &'b u16) -> &'b u16>()
        + sink::<unsafe extern "C" fn(i32, ...) -> i32>()
        + sink::<extern "system" fn()>()
        + sink::<*const [u8]>()
        + sink::<&'static mut dyn Fn(&str) -> usize>()
        + sink::<dyn for<'a> Fn(&'a [u8]) -> &'a u8 + Send>()
        + sink::<[[u8; 4]; 2]>()
        + sink::<(i8, (u16,), ())>()
        + sink::<fn() -> !>()
        + sink::<str>();
    println!("{}", sinks);
    if total == 0 {
        never_returns();
    }
}
