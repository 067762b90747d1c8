#!/bin/sh
# The transfer engine's files call only into their own layer or the
# layers below (see doc/HACKING): the symbols each
# object of src/libcpdd.a leaves undefined may be defined only by an
# object of the same or a lower layer, the methods do not call one
# another, and the calls between files form no cycle.  cp's own
# objects are layered too, from the tables up to the walk, whose two
# files alone call each other (a directory's entries are copied as
# files are), and the entries to it: the session and other ranks.

. "${srcdir=.}/tests/init.sh"

NM=${NM-nm}
command -v "$NM" > /dev/null || skip_ "no $NM"

lib=$abs_top_builddir/src/libcpdd.a
test -f "$lib" || framework_failure_
test -n "$cp_objects" || framework_failure_

# Each object of the library (named as automake names it: FILE.o, or
# libcpdd_a-FILE.o with per-target flags), lowest layer first.  A layer
# marked "alone" is one whose files may not call one another.
cat > layers <<'EOF' || framework_failure_
# layer         file
util            side-file
util            system
util            xfer-size
util            xfer-stats
util            xfer-hash
tasks           cpus
tasks           workers
io              xfer-io
io              xfer-window
io              xfer-readback
output          xfer-output
method alone    xfer-mmap
method alone    xfer-offload
method alone    xfer-overlap
method alone    xfer-readloop
chooser         xfer
ranges          xfer-range
front           xfer-progress
front           xfer-cli
EOF

# cp's objects, named as the library's are.  Calls between the two
# files of its "walk" layer may go round: a directory's entries are
# files of the tree in turn.
cat > cp-layers <<'EOF' || framework_failure_
# layer         file
dirs            walk
tables alone    copy-links
tables alone    copy-attr
tables alone    copy-hash
file            copy-file
hand            copy-jobs
hand            copy-send
walk            copy-dir
walk            copy
entry alone     copy-serve
entry alone     copy-session
front           cp
front           remote-none
EOF

# POSIX output: a line "LIBRARY[MEMBER]:" (GNU, Solaris) or
# "LIBRARY(MEMBER):" (BSD) or "MEMBER:" before the symbols of each
# member, then "NAME TYPE [VALUE SIZE]" per symbol.
"$NM" -P "$lib" > symbols 2> nm.err || framework_failure_
(cd "$abs_top_builddir" && "$NM" -P $cp_objects) > cp-symbols 2> nm.err \
  || framework_failure_

# Print one line per violation of the table $1 by the objects whose
# symbols $2 lists; nothing if the layering holds.  The calls between
# files form no cycle, but within the layer $3, if any.
check_layers ()
{
awk -v cyclic="$3" '
  FNR == NR {
    if ($1 ~ /^#/ || NF == 0)
      next
    if (!($1 in rank))
      rank[$1] = ++layers
    file = $NF
    layer[file] = $1
    alone[file] = ($2 == "alone")
    next
  }
  NF == 1 && /:$/ {
    obj = $1
    sub (/[])]?:$/, "", obj)
    sub (/^.*[[(]/, "", obj)
    sub (/^.*\//, "", obj)
    sub (/^libcpdd_a-/, "", obj)
    sub (/\.o(bj)?$/, "", obj)
    objs[obj] = 1
    next
  }
  NF >= 2 {
    sym = $1; type = $2
    if (type == "U")
      uses[obj, ++nuses[obj]] = sym
    else if (type ~ /^[A-TV-Z]$/)
      {
        definer[sym] = obj
        defined[obj]++
      }
  }
  END {
    for (obj in objs)
      {
        if (!(obj in layer))
          print obj ": not in the table of layers"
        else if (!defined[obj])
          print obj ": no symbols defined (is nm able to read it?)"
      }
    for (f in layer)
      if (!(f in objs))
        print f ": in the table but not among the objects"

    for (obj in objs)
      for (i = 1; i <= nuses[obj]; i++)
        {
          sym = uses[obj, i]
          if (!(sym in definer) || definer[sym] == obj)
            continue
          to = definer[sym]
          if (!(obj in layer) || !(to in layer))
            continue
          if (rank[layer[to]] > rank[layer[obj]])
            print obj " (" layer[obj] ") calls " sym " of " to \
                  " (" layer[to] "), a higher layer"
          else if (layer[to] == layer[obj] && alone[obj])
            print obj " (" layer[obj] ") calls " sym " of " to \
                  ", another file of its layer"
          if (layer[obj] == cyclic && layer[to] == cyclic)
            continue
          if (!((obj, to) in edge))
            {
              edge[obj, to] = 1
              out[obj] = out[obj] " " to
            }
        }

    # A cycle is an edge back to a file still on the depth-first path.
    for (obj in objs)
      if (!state[obj])
        visit(obj)
  }
  function visit(f,    n, next_f, i) {
    state[f] = 1
    n = split (out[f], next_f, " ")
    for (i = 1; i <= n; i++)
      {
        if (state[next_f[i]] == 1)
          print "cycle through " f " and " next_f[i]
        else if (!state[next_f[i]])
          visit(next_f[i])
      }
    state[f] = 2
  }
' "$1" "$2"
}

check_layers layers symbols '' > violations || framework_failure_
check_layers cp-layers cp-symbols walk >> violations || framework_failure_

compare /dev/null violations || fail=1

Exit $fail
