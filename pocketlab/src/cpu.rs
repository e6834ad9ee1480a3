//! Whether this CPU runs this build.
//!
//! On x86-64 the workspace builds for x86-64-v3 (`.cargo/config.toml`):
//! the engine's bit scans and counts then compile to single instructions.
//! A CPU without them would stop the program with SIGILL somewhere in a
//! run; [`missing_features`] lets `main` refuse at once and say how to
//! build for such a machine instead.

/// The instruction-set extensions this build was compiled to use that the
/// CPU it runs on lacks (empty where it has them all, and off x86-64).
pub fn missing_features() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        x86::missing(&x86::compiled_features(), &x86::CpuidLeaves::of_this_cpu())
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    /// An extension, whether the build uses it, and where CPUID reports it.
    #[derive(Clone, Copy, Debug)]
    pub(super) struct Feature {
        name: &'static str,
        compiled: bool,
        bit: CpuidBit,
    }

    #[derive(Clone, Copy, Debug)]
    enum CpuidBit {
        /// Leaf 1, register ECX.
        Leaf1Ecx(u32),
        /// Leaf 7 (sub-leaf 0), register EBX.
        Leaf7Ebx(u32),
        /// Leaf 0x8000_0001, register ECX.
        Extended1Ecx(u32),
    }

    /// The registers of the CPUID leaves the features live in (zero where the
    /// CPU has no such leaf).
    #[derive(Clone, Copy, Debug, Default)]
    pub(super) struct CpuidLeaves {
        leaf1_ecx: u32,
        leaf7_ebx: u32,
        extended1_ecx: u32,
    }

    impl CpuidLeaves {
        pub(super) fn of_this_cpu() -> CpuidLeaves {
            use std::arch::x86_64::__cpuid_count;
            let max_leaf = __cpuid_count(0, 0).eax;
            let max_extended = __cpuid_count(0x8000_0000, 0).eax;
            CpuidLeaves {
                leaf1_ecx: __cpuid_count(1, 0).ecx,
                leaf7_ebx: if max_leaf >= 7 {
                    __cpuid_count(7, 0).ebx
                } else {
                    0
                },
                extended1_ecx: if max_extended >= 0x8000_0001 {
                    __cpuid_count(0x8000_0001, 0).ecx
                } else {
                    0
                },
            }
        }

        fn has(&self, bit: CpuidBit) -> bool {
            let (register, bit) = match bit {
                CpuidBit::Leaf1Ecx(b) => (self.leaf1_ecx, b),
                CpuidBit::Leaf7Ebx(b) => (self.leaf7_ebx, b),
                CpuidBit::Extended1Ecx(b) => (self.extended1_ecx, b),
            };
            register >> bit & 1 == 1
        }
    }

    /// The extensions of x86-64-v2 and -v3 that code may be compiled to use,
    /// each with whether this build does.
    pub(super) fn compiled_features() -> [Feature; 10] {
        use CpuidBit::{Extended1Ecx, Leaf1Ecx, Leaf7Ebx};
        let feature = |name, compiled, bit| Feature {
            name,
            compiled,
            bit,
        };
        [
            feature("sse4.2", cfg!(target_feature = "sse4.2"), Leaf1Ecx(20)),
            feature("popcnt", cfg!(target_feature = "popcnt"), Leaf1Ecx(23)),
            feature("fma", cfg!(target_feature = "fma"), Leaf1Ecx(12)),
            feature("movbe", cfg!(target_feature = "movbe"), Leaf1Ecx(22)),
            feature("avx", cfg!(target_feature = "avx"), Leaf1Ecx(28)),
            feature("f16c", cfg!(target_feature = "f16c"), Leaf1Ecx(29)),
            feature("bmi1", cfg!(target_feature = "bmi1"), Leaf7Ebx(3)),
            feature("avx2", cfg!(target_feature = "avx2"), Leaf7Ebx(5)),
            feature("bmi2", cfg!(target_feature = "bmi2"), Leaf7Ebx(8)),
            feature("lzcnt", cfg!(target_feature = "lzcnt"), Extended1Ecx(5)),
        ]
    }

    pub(super) fn missing(features: &[Feature], cpu: &CpuidLeaves) -> Vec<&'static str> {
        features
            .iter()
            .filter(|f| f.compiled && !cpu.has(f.bit))
            .map(|f| f.name)
            .collect()
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The shipped table, as if the build used every extension in it.
        fn all_compiled() -> Vec<Feature> {
            compiled_features()
                .into_iter()
                .map(|f| Feature {
                    compiled: true,
                    ..f
                })
                .collect()
        }

        #[test]
        fn a_cpu_without_an_extension_the_build_uses_is_refused_by_name() {
            // An Ivy Bridge (2012): SSE4.2, POPCNT, AVX and F16C, none of
            // Haswell's FMA, MOVBE, BMI1, AVX2, BMI2 and LZCNT.
            let old = CpuidLeaves {
                leaf1_ecx: 1 << 20 | 1 << 23 | 1 << 28 | 1 << 29,
                leaf7_ebx: 0,
                extended1_ecx: 0,
            };
            assert_eq!(
                missing(&all_compiled(), &old),
                ["fma", "movbe", "bmi1", "avx2", "bmi2", "lzcnt"]
            );
            let modern = CpuidLeaves {
                leaf1_ecx: 1 << 12 | 1 << 20 | 1 << 22 | 1 << 23 | 1 << 28 | 1 << 29,
                leaf7_ebx: 1 << 3 | 1 << 5 | 1 << 8,
                extended1_ecx: 1 << 5,
            };
            assert!(missing(&all_compiled(), &modern).is_empty());
        }

        #[test]
        fn extensions_the_build_does_not_use_are_not_required() {
            let mut features = all_compiled();
            features.iter_mut().for_each(|f| f.compiled = false);
            assert!(missing(&features, &CpuidLeaves::default()).is_empty());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_running_the_tests_runs_this_build() {
        // The tests themselves run on this CPU, so it has what they use.
        assert_eq!(missing_features(), Vec::<&str>::new());
    }
}
