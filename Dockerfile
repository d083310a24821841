# The judge as a container image, for grading on a cluster: the Kubernetes steps in deploy/kubernetes/, a Slurm
# array through podman or apptainer, or plain docker run. The image holds the judge only, never a problem's
# hidden cases or reference solution: those come from a volume at run time (JUDGE_PROBLEMS, JUDGE_SOLUTIONS), so
# the image may sit in a registry students can read.
#
#   docker build -t torch-judge .
#   docker run --rm -e JUDGE_PROBLEMS=/data/problems -e JUDGE_SOLUTIONS=/data/solutions \
#       -v "$PWD/problems:/data/problems:ro" -v "$PWD/solutions:/data/solutions:ro" \
#       -v "$PWD/submissions:/data/submissions:ro" -v "$PWD/graded:/data/graded" torch-judge \
#       grade training-diagnostics /data/submissions --out /data/graded
#
# Run as root (docker's default), each worker gets uid 65534 of its own; run as uid 10001 (the Kubernetes steps,
# under the "restricted" Pod Security Standard), the workers keep the judge's uid. Either way Landlock and the
# seccomp filter give level L1 under the default seccomp profiles of Docker and containerd. See docs/clusters.md.
#
# The base image is pinned by digest: the multi-platform index of python:3.11-slim-bookworm (3.11.16), as many
# public Dockerfiles pinned it in October 2026; it could not be pulled from here to check. To move to a newer
# build: docker buildx imagetools inspect python:3.11-slim-bookworm, and write its digest below.
FROM python:3.11-slim-bookworm@sha256:a36c24f9cbdf4fd0f52d67f0823eeac19c2028c637cecc392d97f980d4fec56b

# bubblewrap for L2 where the runtime allows user namespaces; libseccomp2 comes with the base image (apt needs it)
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap && rm -rf /var/lib/apt/lists/*

# the dependencies, exact, from requirements.lock; torch's CPU build from PyTorch's index (set TORCH_INDEX empty
# to use pip's own configuration, which must then serve torch==...+cpu)
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu
COPY requirements.lock /tmp/requirements.lock
RUN pip install --no-cache-dir ${TORCH_INDEX:+--extra-index-url "$TORCH_INDEX"} -r /tmp/requirements.lock \
    && rm /tmp/requirements.lock

# the judge alone: no problems/, no solutions/ (.dockerignore keeps them out of the build context too)
COPY pyproject.toml README.md LICENSE /src/
COPY judge /src/judge
COPY judge_bundle/__init__.py /src/judge_bundle/__init__.py
RUN pip install --no-cache-dir --no-deps /src && pip check && rm -rf /src

# calibrations are kept per machine in JUDGE_CACHE (mount a shared volume there to calibrate each node once);
# both folders belong to uid 10001, the user the Kubernetes steps run as
ENV JUDGE_CACHE=/var/cache/torch-judge JUDGE_HOME=/var/lib/torch-judge
RUN judge doctor && useradd --uid 10001 --user-group --no-create-home --home-dir /var/lib/torch-judge judge \
    && install -d -o 10001 -g 10001 "$JUDGE_CACHE" "$JUDGE_HOME" && chown -R 10001:10001 "$JUDGE_CACHE" "$JUDGE_HOME"
WORKDIR /data
ENTRYPOINT ["judge"]
CMD ["--help"]
