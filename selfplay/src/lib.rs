pub mod sprt;
