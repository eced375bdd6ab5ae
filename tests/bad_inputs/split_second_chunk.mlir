// RUN with -split-input-file: the first test case is fine, the second is not.
module {
  tt.func public @ok(%a: i32) attributes {noinline = false} {
    %0 = arith.addi %a, %a : i32
    tt.return
  }
}

// -----

module {
  tt.func public @bad(%a: i32) attributes {noinline = false} {
    %0 = arith.addi %a, %undefined : i32
    tt.return
  }
}
