# The judge as a container image, for grading on a cluster: a Kubernetes Indexed Job
# (deploy/kubernetes/grade-indexed-job.yaml), a Slurm array through podman or apptainer, or plain docker run.
#
#   docker build -t torch-judge .
#   docker run --rm -v "$PWD/submissions:/data/submissions:ro" -v "$PWD/graded:/data/graded" torch-judge \
#       grade training-diagnostics /data/submissions --out /data/graded
#
# It runs as root inside the container, so each worker gets uid 65534 of its own, with Landlock and the seccomp
# filter: level L1 under the default seccomp profiles of Docker and containerd (they let the Landlock calls through
# and refuse the user namespaces bubblewrap needs). See the README's "Containers and clusters" for L2.
FROM python:3.11-slim-bookworm

# bubblewrap for L2 where the runtime allows user namespaces; libseccomp2 comes with the base image (apt needs it)
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap && rm -rf /var/lib/apt/lists/*

# the CPU build of torch first, from PyTorch's index (set TORCH_INDEX empty to use pip's own configuration)
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu
RUN pip install --no-cache-dir ${TORCH_INDEX:+--index-url "$TORCH_INDEX"} "torch==2.13.0"

COPY pyproject.toml README.md /src/
COPY judge /src/judge
COPY judge_bundle /src/judge_bundle
COPY problems /src/problems
COPY solutions /src/solutions
RUN pip install --no-cache-dir /src && rm -rf /src

# calibrations are kept per machine in this folder (mount a shared volume here to calibrate each node once)
ENV JUDGE_CACHE=/var/cache/torch-judge JUDGE_HOME=/var/lib/torch-judge
RUN judge doctor
WORKDIR /data
ENTRYPOINT ["judge"]
CMD ["--help"]
