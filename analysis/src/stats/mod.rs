//! placeholder
pub mod bradley_terry;
pub mod elo;
pub mod equivalence;
pub mod estimate;
mod linalg;
pub mod pentanomial;
pub mod trinomial;

#[cfg(test)]
mod sim;
