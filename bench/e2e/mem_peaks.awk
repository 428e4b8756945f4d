# The peaks of mem_sampler.sh's CSV, per phase: host memory in use, /dev/shm, and each process's RSS, PSS and
# private anonymous memory (GiB).
BEGIN { FS = "," }
{
  ph = $2
  if (!(ph in seen)) { seen[ph] = 1; order[++n] = ph }
  if ($3 > used[ph]) used[ph] = $3
  if ($5 > shm[ph]) shm[ph] = $5
  for (i = 6; i <= NF; ++i) {
    split($i, p, ":")
    k = ph SUBSEP p[1]
    if (!(k in rss)) procs[ph] = procs[ph] " " p[1]
    if (p[2] > rss[k]) rss[k] = p[2]
    if (p[3] > pss[k]) pss[k] = p[3]
    if (p[4] > anon[k]) anon[k] = p[4]
  }
}
END {
  g = 2 ^ 30
  printf "| phase | peak host memory in use | peak /dev/shm | processes: peak RSS / PSS / anonymous |\n|---|---|---|---|\n"
  for (i = 1; i <= n; ++i) {
    ph = order[i]; s = ""
    m = split(procs[ph], names, " ")
    for (j = 1; j <= m; ++j) {
      k = ph SUBSEP names[j]
      s = s sprintf("%s %.2f / %.2f / %.3f GiB; ", names[j], rss[k] / g, pss[k] / g, anon[k] / g)
    }
    printf "| %s | %.2f GiB | %.2f GiB | %s|\n", ph, used[ph] / g, shm[ph] / g, s
  }
}
