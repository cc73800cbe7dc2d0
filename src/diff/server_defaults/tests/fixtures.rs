//! Fixtures for the server-defaults tests: what the operator writes, and
//! what `kubectl get -o yaml` prints for it once stored.

pub(super) const ROUTER_DEPLOYMENT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: chat-router
  namespace: llm
  labels:
    app.kubernetes.io/managed-by: llmkube
spec:
  replicas: 1
  selector:
    matchLabels:
      inference.llmkube.dev/model-router: chat
  template:
    metadata:
      labels:
        inference.llmkube.dev/model-router: chat
      annotations:
        inference.llmkube.dev/router-config-hash: 3f1c9a
    spec:
      serviceAccountName: chat-router
      securityContext:
        runAsNonRoot: true
        runAsUser: 65532
        fsGroup: 65532
        seccompProfile:
          type: RuntimeDefault
      containers:
      - name: router-proxy
        image: ghcr.io/defilantech/llmkube-router-proxy:dev
        imagePullPolicy: IfNotPresent
        args: ["--config", "/etc/llmkube/router/config.json", "--listen", ":8080"]
        ports:
        - name: http
          containerPort: 8080
          protocol: TCP
        - name: metrics
          containerPort: 9090
          protocol: TCP
        env:
        - name: ROUTER_NAME
          value: chat
        volumeMounts:
        - name: router-config
          mountPath: /etc/llmkube/router
          readOnly: true
        resources:
          requests: {cpu: 50m, memory: 64Mi}
          limits: {cpu: 500m, memory: 256Mi}
        securityContext:
          allowPrivilegeEscalation: false
          readOnlyRootFilesystem: true
          runAsNonRoot: true
          capabilities:
            drop: ["ALL"]
        livenessProbe:
          httpGet:
            path: /health
            port: 8080
          initialDelaySeconds: 20
          periodSeconds: 10
          timeoutSeconds: 2
          failureThreshold: 3
        readinessProbe:
          httpGet:
            path: /health
            port: 8080
          initialDelaySeconds: 5
          periodSeconds: 5
          timeoutSeconds: 2
          failureThreshold: 3
      volumes:
      - name: router-config
        configMap:
          name: chat-router
"#;

pub(super) const ROUTER_DEPLOYMENT_STORED: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "1"
  creationTimestamp: "2025-05-02T09:14:03Z"
  generation: 1
  labels:
    app.kubernetes.io/managed-by: llmkube
  name: chat-router
  namespace: llm
  resourceVersion: "48213"
  uid: 0b6f3a52-8d7e-4c1a-9e02-5b1f7c3d2a90
spec:
  progressDeadlineSeconds: 600
  replicas: 1
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      inference.llmkube.dev/model-router: chat
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      annotations:
        inference.llmkube.dev/router-config-hash: 3f1c9a
      labels:
        inference.llmkube.dev/model-router: chat
    spec:
      containers:
      - args:
        - --config
        - /etc/llmkube/router/config.json
        - --listen
        - :8080
        env:
        - name: ROUTER_NAME
          value: chat
        image: ghcr.io/defilantech/llmkube-router-proxy:dev
        imagePullPolicy: IfNotPresent
        livenessProbe:
          failureThreshold: 3
          httpGet:
            path: /health
            port: 8080
            scheme: HTTP
          initialDelaySeconds: 20
          periodSeconds: 10
          successThreshold: 1
          timeoutSeconds: 2
        name: router-proxy
        ports:
        - containerPort: 8080
          name: http
          protocol: TCP
        - containerPort: 9090
          name: metrics
          protocol: TCP
        readinessProbe:
          failureThreshold: 3
          httpGet:
            path: /health
            port: 8080
            scheme: HTTP
          initialDelaySeconds: 5
          periodSeconds: 5
          successThreshold: 1
          timeoutSeconds: 2
        resources:
          limits:
            cpu: 500m
            memory: 256Mi
          requests:
            cpu: 50m
            memory: 64Mi
        securityContext:
          allowPrivilegeEscalation: false
          capabilities:
            drop:
            - ALL
          readOnlyRootFilesystem: true
          runAsNonRoot: true
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
        volumeMounts:
        - mountPath: /etc/llmkube/router
          name: router-config
          readOnly: true
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext:
        fsGroup: 65532
        runAsNonRoot: true
        runAsUser: 65532
        seccompProfile:
          type: RuntimeDefault
      serviceAccount: chat-router
      serviceAccountName: chat-router
      terminationGracePeriodSeconds: 30
      volumes:
      - configMap:
          defaultMode: 420
          name: chat-router
        name: router-config
status:
  availableReplicas: 1
  observedGeneration: 1
  readyReplicas: 1
  replicas: 1
  updatedReplicas: 1
"#;

/// A deliberately sparse Deployment reaching every pod-template default.
pub(super) const SPARSE_DEPLOYMENT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: sparse
spec:
  selector:
    matchLabels: {app: sparse}
  template:
    metadata:
      labels: {app: sparse}
    spec:
      initContainers:
      - name: wait
        image: busybox
        command: ["sh", "-c", "true"]
      containers:
      - name: app
        image: registry.example.com:5000/team/app@sha256:4c1e8e2f4b5d6a7980c1d2e3f4a5b6c7d8e9f00112233445566778899aabbccd
        ports:
        - containerPort: 8080
        env:
        - name: POD_NAME
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        - name: CPU_LIMIT
          valueFrom:
            resourceFieldRef:
              resource: limits.cpu
        livenessProbe:
          tcpSocket:
            port: 8080
        readinessProbe:
          httpGet:
            port: 8080
        startupProbe:
          grpc:
            port: 9090
        lifecycle:
          preStop:
            httpGet:
              port: 8080
              path: /drain
        volumeMounts:
        - {name: scratch, mountPath: /tmp}
      volumes:
      - name: scratch
      - name: creds
        secret:
          secretName: creds
      - name: host
        hostPath:
          path: /var/run
      - name: podinfo
        downwardAPI:
          items:
          - path: labels
            fieldRef:
              fieldPath: metadata.labels
      - name: token
        projected:
          sources:
          - serviceAccountToken:
              path: token
          - downwardAPI:
              items:
              - path: mem
                resourceFieldRef:
                  containerName: app
                  resource: limits.memory
"#;

pub(super) const SPARSE_DEPLOYMENT_STORED: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: sparse
  namespace: default
  generation: 1
spec:
  progressDeadlineSeconds: 600
  replicas: 1
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: sparse
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      labels:
        app: sparse
    spec:
      containers:
      - env:
        - name: POD_NAME
          valueFrom:
            fieldRef:
              apiVersion: v1
              fieldPath: metadata.name
        - name: CPU_LIMIT
          valueFrom:
            resourceFieldRef:
              divisor: "0"
              resource: limits.cpu
        image: registry.example.com:5000/team/app@sha256:4c1e8e2f4b5d6a7980c1d2e3f4a5b6c7d8e9f00112233445566778899aabbccd
        imagePullPolicy: IfNotPresent
        lifecycle:
          preStop:
            httpGet:
              path: /drain
              port: 8080
              scheme: HTTP
        livenessProbe:
          failureThreshold: 3
          periodSeconds: 10
          successThreshold: 1
          tcpSocket:
            port: 8080
          timeoutSeconds: 1
        name: app
        ports:
        - containerPort: 8080
          protocol: TCP
        readinessProbe:
          failureThreshold: 3
          httpGet:
            path: /
            port: 8080
            scheme: HTTP
          periodSeconds: 10
          successThreshold: 1
          timeoutSeconds: 1
        resources: {}
        startupProbe:
          failureThreshold: 3
          grpc:
            port: 9090
            service: ""
          periodSeconds: 10
          successThreshold: 1
          timeoutSeconds: 1
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
        volumeMounts:
        - mountPath: /tmp
          name: scratch
      dnsPolicy: ClusterFirst
      initContainers:
      - command:
        - sh
        - -c
        - "true"
        image: busybox
        imagePullPolicy: Always
        name: wait
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
      volumes:
      - emptyDir: {}
        name: scratch
      - name: creds
        secret:
          defaultMode: 420
          secretName: creds
      - hostPath:
          path: /var/run
          type: ""
        name: host
      - downwardAPI:
          defaultMode: 420
          items:
          - fieldRef:
              apiVersion: v1
              fieldPath: metadata.labels
            path: labels
        name: podinfo
      - name: token
        projected:
          defaultMode: 420
          sources:
          - serviceAccountToken:
              expirationSeconds: 3600
              path: token
          - downwardAPI:
              items:
              - path: mem
                resourceFieldRef:
                  containerName: app
                  divisor: "0"
                  resource: limits.memory
status: {}
"#;

pub(super) const ROUTER_SERVICE: &str = r#"
apiVersion: v1
kind: Service
metadata:
  name: chat-router
  namespace: llm
spec:
  type: ClusterIP
  selector:
    inference.llmkube.dev/model-router: chat
  ports:
  - name: http
    port: 8080
    targetPort: 8080
    protocol: TCP
"#;

pub(super) const ROUTER_SERVICE_STORED: &str = r#"
apiVersion: v1
kind: Service
metadata:
  creationTimestamp: "2025-05-02T09:14:03Z"
  name: chat-router
  namespace: llm
  resourceVersion: "48190"
  uid: 5e0c2b7a-11f3-4d8e-a0b4-3c9d8e7f6a51
spec:
  clusterIP: 10.96.142.17
  clusterIPs:
  - 10.96.142.17
  internalTrafficPolicy: Cluster
  ipFamilies:
  - IPv4
  ipFamilyPolicy: SingleStack
  ports:
  - name: http
    port: 8080
    protocol: TCP
    targetPort: 8080
  selector:
    inference.llmkube.dev/model-router: chat
  sessionAffinity: None
  type: ClusterIP
status:
  loadBalancer: {}
"#;

pub(super) const NODE_PORT_SERVICE: &str = r#"
apiVersion: v1
kind: Service
metadata:
  name: chat-router
spec:
  type: NodePort
  selector:
    inference.llmkube.dev/model-router: chat
  ports:
  - name: http
    port: 8080
"#;

pub(super) const NODE_PORT_SERVICE_STORED: &str = r#"
apiVersion: v1
kind: Service
metadata:
  name: chat-router
spec:
  clusterIP: 10.96.88.3
  clusterIPs:
  - 10.96.88.3
  externalTrafficPolicy: Cluster
  internalTrafficPolicy: Cluster
  ipFamilies:
  - IPv4
  ipFamilyPolicy: SingleStack
  ports:
  - name: http
    nodePort: 31580
    port: 8080
    protocol: TCP
    targetPort: 8080
  selector:
    inference.llmkube.dev/model-router: chat
  sessionAffinity: None
  type: NodePort
status:
  loadBalancer: {}
"#;

pub(super) const LOCAL_LOAD_BALANCER: &str = r#"
apiVersion: v1
kind: Service
metadata:
  name: chat-router
spec:
  type: LoadBalancer
  externalTrafficPolicy: Local
  selector:
    inference.llmkube.dev/model-router: chat
  ports:
  - name: http
    port: 80
    targetPort: http
"#;

pub(super) const LOCAL_LOAD_BALANCER_STORED: &str = r#"
apiVersion: v1
kind: Service
metadata:
  name: chat-router
spec:
  allocateLoadBalancerNodePorts: true
  clusterIP: fd00:10:96::5a1
  clusterIPs:
  - fd00:10:96::5a1
  - 10.96.201.9
  externalTrafficPolicy: Local
  healthCheckNodePort: 32107
  internalTrafficPolicy: Cluster
  ipFamilies:
  - IPv6
  - IPv4
  ipFamilyPolicy: PreferDualStack
  ports:
  - name: http
    nodePort: 30412
    port: 80
    protocol: TCP
    targetPort: http
  selector:
    inference.llmkube.dev/model-router: chat
  sessionAffinity: None
  type: LoadBalancer
status:
  loadBalancer:
    ingress:
    - ip: 203.0.113.40
      ipMode: VIP
"#;

pub(super) const ROUTER_CONFIG_MAP: &str = r#"
apiVersion: v1
kind: ConfigMap
metadata:
  name: chat-router
  annotations:
    inference.llmkube.dev/router-config-hash: 3f1c9a
data:
  config.json: '{"backends":[]}'
"#;

pub(super) const ROUTER_CONFIG_MAP_STORED: &str = r#"
apiVersion: v1
data:
  config.json: '{"backends":[]}'
kind: ConfigMap
metadata:
  annotations:
    inference.llmkube.dev/router-config-hash: 3f1c9a
  creationTimestamp: "2025-05-02T09:14:02Z"
  name: chat-router
  namespace: llm
  resourceVersion: "48188"
  uid: 9a1d0c4e-2b3f-4e5a-8c6d-7e8f9a0b1c2d
"#;

pub(super) const ROUTER_SERVICE_ACCOUNT: &str = r#"
apiVersion: v1
kind: ServiceAccount
metadata:
  name: chat-router
  namespace: llm
"#;

pub(super) const ROUTER_SERVICE_ACCOUNT_STORED: &str = r#"
apiVersion: v1
kind: ServiceAccount
metadata:
  creationTimestamp: "2025-05-02T09:14:02Z"
  name: chat-router
  namespace: llm
  resourceVersion: "48185"
  uid: 1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f
"#;

pub(super) const ROUTER_ROLE: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: chat-router
  namespace: llm
rules:
- apiGroups: ["inference.llmkube.dev"]
  resources: ["inferenceservices"]
  verbs: ["get", "list", "watch", "update", "patch"]
- apiGroups: ["inference.llmkube.dev"]
  resources: ["inferenceservices/status"]
  verbs: ["get"]
"#;

pub(super) const ROUTER_ROLE_STORED: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  creationTimestamp: "2025-05-02T09:14:02Z"
  name: chat-router
  namespace: llm
  resourceVersion: "48186"
  uid: 2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a
rules:
- apiGroups:
  - inference.llmkube.dev
  resources:
  - inferenceservices
  verbs:
  - get
  - list
  - watch
  - update
  - patch
- apiGroups:
  - inference.llmkube.dev
  resources:
  - inferenceservices/status
  verbs:
  - get
"#;

pub(super) const ROUTER_ROLE_BINDING: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: chat-router
  namespace: llm
roleRef:
  kind: Role
  name: chat-router
subjects:
- kind: ServiceAccount
  name: chat-router
  namespace: llm
- kind: User
  name: alice@example.com
- kind: Group
  name: llm-operators
"#;

pub(super) const ROUTER_ROLE_BINDING_STORED: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  creationTimestamp: "2025-05-02T09:14:02Z"
  name: chat-router
  namespace: llm
  resourceVersion: "48187"
  uid: 3e4f5a6b-7c8d-4e9f-0a1b-2c3d4e5f6a7b
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: chat-router
subjects:
- kind: ServiceAccount
  name: chat-router
  namespace: llm
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: alice@example.com
- apiGroup: rbac.authorization.k8s.io
  kind: Group
  name: llm-operators
"#;
