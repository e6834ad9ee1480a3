//! placeholder until the stats helper lands
