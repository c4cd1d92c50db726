-- The scale-out app (docker compose --profile scale-out) keeps its own database beside the default app's:
-- the mail runner's advisory lock and the monitoring figures are per database, so sharing one would let one app's
-- mail runner stand idle and mix the two apps' figures. Runs once, when the data volume is first created.
CREATE DATABASE bhc_scale_out;
