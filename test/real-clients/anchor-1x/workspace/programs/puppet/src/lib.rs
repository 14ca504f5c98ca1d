// This workspace ships the program built (target/deploy/puppet.so, from kevinheavey/anchor-bankrun; see
// test/real-clients/anchor-1x/README.md) and runs `anchor test --skip-build`: no source is needed, and none is kept here.
