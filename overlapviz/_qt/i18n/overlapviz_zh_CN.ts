<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>App</name>
    <message>
        <source>overlapviz: error: no display (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM) to show {path} on; open it where there is one with File ▸ Open, or draw it with &apos;overlapviz render&apos;</source>
        <translation>overlapviz: 错误: 没有可以显示 {path} 的显示器（未设置 DISPLAY、WAYLAND_DISPLAY 或 QT_QPA_PLATFORM）；请在有显示器的地方用 文件 ▸ 打开 打开它，或用 &apos;overlapviz render&apos; 把它画出来</translation>
    </message>
    <message>
        <source>overlapviz: no display (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM): drawing the timeline to a PNG</source>
        <translation>overlapviz: 没有显示器（未设置 DISPLAY、WAYLAND_DISPLAY 或 QT_QPA_PLATFORM）：将时间线画成 PNG</translation>
    </message>
    <message>
        <source>overlapviz: could not draw the default timeline: {error}</source>
        <translation>overlapviz: 无法绘制默认时间线：{error}</translation>
    </message>
</context>
<context>
    <name>BandwidthDialog</name>
    <message>
        <source>Copy bandwidth by transfer size</source>
        <translation>按传输大小的拷贝带宽</translation>
    </message>
    <message>
        <source>Sweep again</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <source>Sweeping copy sizes on {device}…</source>
        <translation>正在 {device} 上扫描拷贝大小…</translation>
    </message>
    <message>
        <source>{title}: one copy at a time, 64 KiB to 1 GiB; the dashed line is the link&apos;s theoretical limit</source>
        <translation>{title}：一次一个拷贝，64 KiB 到 1 GiB；虚线为链路的理论上限</translation>
    </message>
    <message>
        <source>The sweep did not complete: {error}</source>
        <translation>扫描未完成：{error}</translation>
    </message>
</context>
<context>
    <name>BandwidthPlot</name>
    <message>
        <source>Transfer size (one copy)</source>
        <translation>传输大小（单次拷贝）</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s, 10⁹ bytes/s)</source>
        <translation>带宽（GB/s，10⁹ 字节/秒）</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>页锁定</translation>
    </message>
    <message>
        <source>pageable</source>
        <translation>可分页</translation>
    </message>
    <message>
        <source>write-combined</source>
        <translation>写合并</translation>
    </message>
    <message>
        <source>default device</source>
        <translation>默认设备</translation>
    </message>
    <message>
        <source>{device}, simulated ({backend} backend)</source>
        <translation>{device}，模拟（{backend} 后端）</translation>
    </message>
    <message>
        <source>{device}, measured ({backend} backend)</source>
        <translation>{device}，实测（{backend} 后端）</translation>
    </message>
    <message>
        <source>{direction}, {memory}</source>
        <translation>{direction}，{memory}</translation>
    </message>
    <message>
        <source>the link</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>{link}: theoretical limit {rate} per direction</source>
        <translation>{link}：每个方向的理论上限 {rate}</translation>
    </message>
</context>
<context>
    <name>BufferRelease</name>
    <message>
        <source>Buffers released: the next run allocates (and pins) its buffers anew.</source>
        <translation>缓冲区已释放：下一次运行将重新分配（并锁页）其缓冲区。</translation>
    </message>
    <message>
        <source>The buffers could not be released: {error}</source>
        <translation>无法释放缓冲区：{error}</translation>
    </message>
</context>
<context>
    <name>Caption</name>
    <message>
        <source>{side}: {caption}</source>
        <translation>{side}：{caption}</translation>
    </message>
    <message>
        <source>drawn {duration} later, to start its device work with the other side&apos;s</source>
        <translation>推迟 {duration} 绘制，使其设备工作与另一侧同时开始</translation>
    </message>
    <message>
        <source>recorded by {tool}</source>
        <translation>由 {tool} 记录</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>unknown device</source>
        <translation>未知设备</translation>
    </message>
    <message>
        <source>{backend} backend, timing: {timing}</source>
        <translation>{backend} 后端，计时：{timing}</translation>
    </message>
    <message>
        <source>window {window}</source>
        <translation>窗口 {window}</translation>
    </message>
    <message>
        <source>makespan {duration}</source>
        <translation>总跨度 {duration}</translation>
    </message>
    <message>
        <source>efficiency {percent}</source>
        <translation>效率 {percent}</translation>
    </message>
    <message>
        <source>copy time hidden {percent}</source>
        <translation>隐藏的拷贝时间 {percent}</translation>
    </message>
    <message>
        <source>communication hidden {percent}</source>
        <translation>通信隐藏 {percent}</translation>
    </message>
    <message>
        <source>simulated</source>
        <translation>模拟</translation>
    </message>
</context>
<context>
    <name>CjkFonts</name>
    <message>
        <source>No Chinese, Japanese or Korean font is installed, so this language&apos;s characters show as boxes. Install {debian} (Debian, Ubuntu) or {fedora} (Fedora), then start overlapviz again.</source>
        <translation>未安装中文、日文或韩文字体，因此该语言的文字会显示为方框。请安装 {debian}（Debian、Ubuntu）或 {fedora}（Fedora），然后重新启动 overlapviz。</translation>
    </message>
</context>
<context>
    <name>ClassBox</name>
    <message>
        <source>Send to the class</source>
        <translation>发送给全班</translation>
    </message>
    <message>
        <source>Open this exercise on the screen of everyone following you; their predictions appear below, without names</source>
        <translation>在所有跟随你的人的屏幕上打开这个练习；他们的预测会以匿名方式显示在下方</translation>
    </message>
</context>
<context>
    <name>ClassExerciseTools</name>
    <message>
        <source>Your instructor sent the exercise “{name}”, which this version of overlapviz does not have</source>
        <translation>你的讲师发送了练习“{name}”，但此版本的 overlapviz 没有这个练习</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>正在发送…</translation>
    </message>
    <message>
        <source>Sent to the class as round {round}: their predictions come in below</source>
        <translation>已作为第 {round} 轮发送给全班：他们的预测会陆续显示在下方</translation>
    </message>
    <message>
        <source>The class&apos;s exercise: {reason}</source>
        <translation>全班练习：{reason}</translation>
    </message>
</context>
<context>
    <name>ClassHistogramView</name>
    <message>
        <source>The class&apos;s predictions appear here</source>
        <translation>全班的预测将显示在这里</translation>
    </message>
</context>
<context>
    <name>ClassLink</name>
    <message>
        <source>the class&apos;s exercise stopped unexpectedly: {error}</source>
        <translation>全班练习意外停止：{error}</translation>
    </message>
</context>
<context>
    <name>ComparePanel</name>
    <message>
        <source>⚠ Each side on its own time axis: A and B are drawn to different scales, so the same x is not the same time (Compare ▸ Shared time axis lines them up).</source>
        <translation>⚠ 两侧各用自己的时间轴：A 和 B 的比例不同，同一 x 位置并不是同一时刻（比较 ▸ 共享时间轴 可将两者对齐）。</translation>
    </message>
    <message>
        <source>{side}: run something to compare with A</source>
        <translation>{side}：运行一次，与 A 比较</translation>
    </message>
</context>
<context>
    <name>ControlsPanel</name>
    <message>
        <source>These settings describe runs of the pipeline, not the opened file. Run to go back.</source>
        <translation>这些设置描述的是流水线的运行，而不是打开的文件。点击运行即可回到流水线。</translation>
    </message>
    <message>
        <source>Not a valid pipeline: {error}</source>
        <translation>不是有效的流水线：{error}</translation>
    </message>
    <message>
        <source>{wanted} chunk is not offered for {size}: using {chunks}, the nearest count that is.</source>
        <translation>{size} 不能分为 {wanted} 个分块：改用 {chunks} 个，即最接近的可用数量。</translation>
    </message>
    <message>
        <source>{wanted} chunks are not offered for {size}: using {chunks}, the nearest count that is.</source>
        <translation>{size} 不能分为 {wanted} 个分块：改用 {chunks} 个，即最接近的可用数量。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>{count} iter</source>
        <translation>{count} 次迭代</translation>
    </message>
    <message>
        <source>{count} iters</source>
        <translation>{count} 次迭代</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>Streams</source>
        <translation>流</translation>
    </message>
    <message>
        <source>How many CUDA streams carry the chunks (chunk c runs on stream c mod streams)</source>
        <translation>承载各分块的 CUDA 流的数量（分块 c 在第 c mod 流数 个流上运行）</translation>
    </message>
    <message>
        <source>Chunks</source>
        <translation>分块</translation>
    </message>
    <message>
        <source>How many equal pieces the buffer is cut into; only counts that divide it evenly are offered</source>
        <translation>缓冲区被切成多少个等大的分块；只提供能整除它的数量</translation>
    </message>
    <message>
        <source>Total size</source>
        <translation>总大小</translation>
    </message>
    <message>
        <source>Bytes copied to the device and back (float32 values)</source>
        <translation>拷贝到设备再拷回的字节数（float32 数值）</translation>
    </message>
    <message>
        <source>Kernel work</source>
        <translation>内核工作量</translation>
    </message>
    <message>
        <source>FMA iterations per element; 0 copies only</source>
        <translation>每个元素的 FMA 迭代次数；0 表示只做拷贝</translation>
    </message>
    <message>
        <source>CUDA Graph</source>
        <translation>CUDA Graph</translation>
    </message>
    <message>
        <source>Issue as one graph</source>
        <translation>作为一个图发出</translation>
    </message>
    <message>
        <source>Capture the pipeline once and launch it as one CUDA Graph per run: one host call instead of one per op</source>
        <translation>把流水线捕获一次，每次运行作为一个 CUDA Graph 启动：只需一次主机调用，而不是每个操作一次</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>One GPU: each chunk&apos;s H2D copy, kernel and D2H copy on GPU 0</source>
        <translation>一块 GPU：每个分块的 H2D 拷贝、内核和 D2H 拷贝都在 GPU 0 上</translation>
    </message>
    <message>
        <source>Two GPUs of one host, sharing the work as the Layout says. Runs on a model with a peer link (h200x2-nvlink, not calibrated on two real GPUs); the CuPy backend runs one GPU</source>
        <translation>同一主机上的两块 GPU，按“布局”的设定分担工作。在带对等链路的模型上运行（h200x2-nvlink，未在两块真实 GPU 上校准）；CuPy 后端只运行一块 GPU</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>Chain</source>
        <translation>链式</translation>
    </message>
    <message>
        <source>With 2 GPUs: every chunk through both, H2D and the kernel on GPU 0, a peer copy to GPU 1, the kernel again and D2H there</source>
        <translation>使用 2 块 GPU 时：每个分块都经过两块 GPU，先在 GPU 0 上做 H2D 和内核，再对等拷贝到 GPU 1，在那里再运行一次内核并做 D2H</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>拆分</translation>
    </message>
    <message>
        <source>With 2 GPUs: the chunks shared out, chunk c on GPU c mod 2 (H2D, kernel, D2H there, no peer copy); both GPUs pull from one portable pinned host buffer at once, each over its own link</source>
        <translation>使用 2 块 GPU 时：分块分给两块 GPU，分块 c 在 GPU c mod 2 上（H2D、内核、D2H 都在那里，没有对等拷贝）；两块 GPU 同时从同一个可移植的页锁定主机缓冲区读取，各走自己的链路</translation>
    </message>
    <message>
        <source>Peer access</source>
        <translation>对等访问</translation>
    </message>
    <message>
        <source>Direct GPU-to-GPU copies</source>
        <translation>GPU 之间直接拷贝</translation>
    </message>
    <message>
        <source>With 2 GPUs in a chain: cudaDeviceEnablePeerAccess, so peer copies go GPU to GPU over NVLink; off, the driver stages each one through pinned host memory. Split makes no peer copies</source>
        <translation>两块 GPU 串联时：调用 cudaDeviceEnablePeerAccess，对等拷贝经 NVLink 在 GPU 之间直接进行；关闭时，驱动程序把每个对等拷贝经由页锁定主机内存中转。拆分布局不做对等拷贝</translation>
    </message>
    <message>
        <source>Host memory</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>页锁定</translation>
    </message>
    <message>
        <source>cudaMallocHost: page-locked, the copy engine reads it directly</source>
        <translation>cudaMallocHost：页锁定，拷贝引擎直接读取它</translation>
    </message>
    <message>
        <source>Pageable</source>
        <translation>可分页</translation>
    </message>
    <message>
        <source>Plain malloc: the driver stages every copy through a pinned buffer, and the host waits</source>
        <translation>普通 malloc：驱动程序把每个拷贝经由一个页锁定缓冲区中转，主机要等待</translation>
    </message>
    <message>
        <source>Registered</source>
        <translation>注册</translation>
    </message>
    <message>
        <source>cudaHostRegister: existing memory pinned after the fact</source>
        <translation>cudaHostRegister：已有的内存在事后被页锁定</translation>
    </message>
    <message>
        <source>Write-combined</source>
        <translation>写合并</translation>
    </message>
    <message>
        <source>cudaHostAlloc(cudaHostAllocWriteCombined): pinned and uncached on the host; host reads of it can be slow</source>
        <translation>cudaHostAlloc(cudaHostAllocWriteCombined)：页锁定，且在主机上不经缓存；主机读取它可能很慢</translation>
    </message>
    <message>
        <source>Mapped</source>
        <translation>映射</translation>
    </message>
    <message>
        <source>cudaHostAllocMapped: no copies, the kernels read and write host memory across PCIe</source>
        <translation>cudaHostAllocMapped：没有拷贝，内核跨 PCIe 直接读写主机内存</translation>
    </message>
    <message>
        <source>Managed</source>
        <translation>托管</translation>
    </message>
    <message>
        <source>cudaMallocManaged without prefetch: pages migrate on first touch, inside the kernels</source>
        <translation>cudaMallocManaged，不预取：页面在内核中被首次访问时迁移</translation>
    </message>
    <message>
        <source>Managed + prefetch</source>
        <translation>托管 + 预取</translation>
    </message>
    <message>
        <source>cudaMallocManaged with cudaMemPrefetchAsync to the GPU before each kernel and back after</source>
        <translation>cudaMallocManaged，并在每个内核之前用 cudaMemPrefetchAsync 预取到 GPU，之后再预取回主机</translation>
    </message>
    <message>
        <source>Staged ring</source>
        <translation>暂存环</translation>
    </message>
    <message>
        <source>Pageable data copied by the host thread through a ring of pinned slots</source>
        <translation>可分页数据由主机线程经由页锁定槽位组成的环形缓冲拷贝</translation>
    </message>
    <message>
        <source>Ring slots</source>
        <translation>环槽数</translation>
    </message>
    <message>
        <source>Pinned buffers of the staging ring (staged memory only): the RAM pinned is the slots, not the data</source>
        <translation>暂存环的页锁定缓冲区（仅用于暂存环）：锁页的内存是这些槽位，而不是数据本身</translation>
    </message>
    <message>
        <source>Issue order</source>
        <translation>发出顺序</translation>
    </message>
    <message>
        <source>Depth first</source>
        <translation>深度优先</translation>
    </message>
    <message>
        <source>H2D, kernel, D2H of chunk 0, then of chunk 1, ...</source>
        <translation>先发出分块 0 的 H2D、内核、D2H，再发出分块 1 的，依此类推</translation>
    </message>
    <message>
        <source>Breadth first</source>
        <translation>广度优先</translation>
    </message>
    <message>
        <source>Every H2D copy, then every kernel, then every D2H copy</source>
        <translation>先发出全部 H2D 拷贝，再发出全部内核，最后发出全部 D2H 拷贝</translation>
    </message>
    <message>
        <source>Streams used</source>
        <translation>使用的流</translation>
    </message>
    <message>
        <source>Non-blocking</source>
        <translation>非阻塞流</translation>
    </message>
    <message>
        <source>cudaStreamNonBlocking streams, one per slider step</source>
        <translation>cudaStreamNonBlocking 流，滑块每一档对应一个流</translation>
    </message>
    <message>
        <source>Legacy default</source>
        <translation>传统默认流</translation>
    </message>
    <message>
        <source>Every op on the legacy default stream, which serialises them</source>
        <translation>所有操作都在传统默认流上，它让操作逐个串行执行</translation>
    </message>
    <message>
        <source>Run on</source>
        <translation>运行于</translation>
    </message>
    <message>
        <source>The real GPU when there is one, and every simulated device</source>
        <translation>真实 GPU（如果有）以及每个模拟设备</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the pipeline once (Ctrl+Return)</source>
        <translation>运行一次流水线（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>Run again on every change</source>
        <translation>每次更改后重新运行</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>ExerciseDetail</name>
    <message>
        <source>Predict, then run</source>
        <translation>先预测，再运行</translation>
    </message>
    <message>
        <source>Challenge: change the controls</source>
        <translation>挑战：调整控件</translation>
    </message>
    <message>
        <source>Quiz</source>
        <translation>测验</translation>
    </message>
    <message>
        <source>Run and check</source>
        <translation>运行并检查</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>再试一次</translation>
    </message>
    <message>
        <source>Step through the findings</source>
        <translation>逐个查看发现</translation>
    </message>
    <message>
        <source>The setup is on the controls: change the sliders, then run and check.</source>
        <translation>初始设置已放在控件上：调整滑块，然后运行并检查。</translation>
    </message>
    <message>
        <source>Hint {number}: {hint}</source>
        <translation>提示 {number}：{hint}</translation>
    </message>
    <message>
        <source>Show a hint ({left} left)</source>
        <translation>显示提示（还剩 {left} 条）</translation>
    </message>
    <message>
        <source>No more hints</source>
        <translation>没有更多提示了</translation>
    </message>
    <message>
        <source>Choose an exercise above: predict what a run will show, then run it and see.</source>
        <translation>在上方选择一个练习：先预测运行会显示什么，再运行看看。</translation>
    </message>
</context>
<context>
    <name>ExerciseDock</name>
    <message>
        <source>Exercises</source>
        <translation>练习</translation>
    </message>
    <message>
        <source>E&amp;xercises</source>
        <translation>练习(&amp;X)</translation>
    </message>
    <message>
        <source>Predict what a run will show, then run it and check; challenges; quizzes</source>
        <translation>预测运行会显示什么，然后运行并检查；挑战；测验</translation>
    </message>
    <message>
        <source>The exercises could not be read: {error}</source>
        <translation>无法读取练习：{error}</translation>
    </message>
    <message>
        <source>This run has no findings to step through.</source>
        <translation>此运行没有可逐个查看的发现。</translation>
    </message>
</context>
<context>
    <name>ExercisePanel</name>
    <message>
        <source>Reset progress</source>
        <translation>重置进度</translation>
    </message>
    <message>
        <source>{kind} · best score {score} · {n} try</source>
        <translation>{kind} · 最高得分 {score} · 尝试 {n} 次</translation>
    </message>
    <message>
        <source>{kind} · best score {score} · {n} tries</source>
        <translation>{kind} · 最高得分 {score} · 尝试 {n} 次</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Slide, full HD: 1920 × 1080 px</source>
        <translation>幻灯片，全高清：1920 × 1080 px</translation>
    </message>
    <message>
        <source>Slide, 4K: 3840 × 2160 px</source>
        <translation>幻灯片，4K：3840 × 2160 px</translation>
    </message>
    <message>
        <source>1920 px wide, as tall as the lanes need (papers, web pages)</source>
        <translation>宽 1920 px，高度按泳道所需（论文、网页）</translation>
    </message>
    <message>
        <source>3840 px wide, as tall as the lanes need (papers, web pages)</source>
        <translation>宽 3840 px，高度按泳道所需（论文、网页）</translation>
    </message>
    <message>
        <source>Export picture</source>
        <translation>导出图片</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Background</source>
        <translation>背景</translation>
    </message>
    <message>
        <source>The theme&apos;s colour</source>
        <translation>主题的颜色</translation>
    </message>
    <message>
        <source>Transparent</source>
        <translation>透明</translation>
    </message>
    <message>
        <source>Time range</source>
        <translation>时间范围</translation>
    </message>
    <message>
        <source>What the timeline shows now</source>
        <translation>时间线当前显示的部分</translation>
    </message>
    <message>
        <source>The whole run</source>
        <translation>整个运行</translation>
    </message>
    <message>
        <source>Caption with config, device, makespan, efficiency and copy time hidden</source>
        <translation>附带标题说明：配置、设备、总跨度、效率和隐藏的拷贝时间</translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <source>Open a session or trace</source>
        <translation>打开会话或追踪文件</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Export trace</source>
        <translation>导出追踪</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation>导出 PNG</translation>
    </message>
    <message>
        <source>Export SVG</source>
        <translation>导出 SVG</translation>
    </message>
    <message>
        <source>{name} holds settings but no trace; run it to see a timeline.</source>
        <translation>{name} 只有设置，没有追踪；运行它即可看到时间线。</translation>
    </message>
    <message>
        <source>Timeline copied to the clipboard</source>
        <translation>时间线已复制到剪贴板</translation>
    </message>
    <message>
        <source>Could not copy the picture: {reason}</source>
        <translation>无法复制图片：{reason}</translation>
    </message>
    <message>
        <source>Wrote {path}</source>
        <translation>已写入 {path}</translation>
    </message>
    <message>
        <source>There is no timeline yet: run the pipeline or open a trace first.</source>
        <translation>还没有时间线：请先运行流水线或打开一个追踪文件。</translation>
    </message>
    <message>
        <source>Could not open {name}: {reason}</source>
        <translation>无法打开 {name}：{reason}</translation>
    </message>
    <message>
        <source>Could not write {name}: {reason}</source>
        <translation>无法写入 {name}：{reason}</translation>
    </message>
</context>
<context>
    <name>FileComparison</name>
    <message>
        <source>Compare with a file (B)</source>
        <translation>与文件比较（B）</translation>
    </message>
    <message>
        <source>{n} files were dropped. Drop one trace or session file to open it, or two to compare them (the first as A).</source>
        <translation>拖放了 {n} 个文件。拖放一个追踪或会话文件即可打开它，拖放两个则进行比较（第一个作为 A）。</translation>
    </message>
</context>
<context>
    <name>HelpDialogs</name>
    <message>
        <source>Pan the timeline (when it has the focus)</source>
        <translation>平移时间线（时间线获得焦点时）</translation>
    </message>
    <message>
        <source>Zoom the timeline</source>
        <translation>缩放时间线</translation>
    </message>
    <message>
        <source>The whole run</source>
        <translation>整个运行</translation>
    </message>
    <message>
        <source>Drag on the time axis</source>
        <translation>在时间轴上拖动</translation>
    </message>
    <message>
        <source>Measure a time window: the figures and findings of that part (Esc: the whole run)</source>
        <translation>测量一个时间窗口：这一段的指标与发现（Esc：整个运行）</translation>
    </message>
    <message>
        <source>overlapviz help</source>
        <translation>overlapviz 帮助</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>&lt;i&gt;In the app:&lt;/i&gt; {where}</source>
        <translation>&lt;i&gt;在应用中：&lt;/i&gt;{where}</translation>
    </message>
</context>
<context>
    <name>ImageExport</name>
    <message>
        <source>no memory for a picture of {width} x {height} pixels</source>
        <translation>内存不足，无法生成 {width} x {height} 像素的图片</translation>
    </message>
    <message>
        <source>PNG encoding failed</source>
        <translation>PNG 编码失败</translation>
    </message>
    <message>
        <source>overlapviz timeline</source>
        <translation>overlapviz 时间线</translation>
    </message>
</context>
<context>
    <name>LabDialog</name>
    <message>
        <source>Lab GPU</source>
        <translation>实验室 GPU</translation>
    </message>
    <message>
        <source>Run on the class&apos;s GPU: your instructor gives the lab server&apos;s address and a join code. Your runs wait in the class&apos;s queue, and the timeline says where each was measured.</source>
        <translation>在班级的 GPU 上运行：讲师会给出实验室服务器的地址和加入码。你的运行在班级的队列中等待，时间线会注明每次运行是在哪里测得的。</translation>
    </message>
    <message>
        <source>http://lab-host:8765</source>
        <translation>http://lab-host:8765</translation>
    </message>
    <message>
        <source>The lab server&apos;s address, as your instructor wrote it (http://HOST:PORT)</source>
        <translation>实验室服务器的地址，按讲师写的填写（http://HOST:PORT）</translation>
    </message>
    <message>
        <source>K7QF-2M9D</source>
        <translation>K7QF-2M9D</translation>
    </message>
    <message>
        <source>The class&apos;s join code (or token); upper or lower case, dashes or none</source>
        <translation>班级的加入码（或令牌）；大小写均可，有无短横线均可</translation>
    </message>
    <message>
        <source>Server &amp;address:</source>
        <translation>服务器地址(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Join code:</source>
        <translation>加入码(&amp;J)：</translation>
    </message>
    <message>
        <source>Run on the lab GPU</source>
        <translation>在实验室 GPU 上运行</translation>
    </message>
    <message>
        <source>{reason}.</source>
        <translation>{reason}。</translation>
    </message>
    <message>
        <source>Give the join code your instructor wrote up.</source>
        <translation>请填写讲师给出的加入码。</translation>
    </message>
</context>
<context>
    <name>LabFollow</name>
    <message>
        <source>following stopped unexpectedly: {error_type}: {error}</source>
        <translation>跟随意外中止：{error_type}: {error}</translation>
    </message>
</context>
<context>
    <name>LabTools</name>
    <message>
        <source>No model can run here: see `overlapviz devices` for why.</source>
        <translation>这里没有可以运行的模型：原因见 `overlapviz devices`。</translation>
    </message>
    <message>
        <source>Following the instructor at {host}: each of their runs appears here</source>
        <translation>正在跟随 {host} 上的讲师：讲师的每次运行都会显示在这里</translation>
    </message>
    <message>
        <source>Following the instructor stopped: {reason}</source>
        <translation>跟随讲师已停止：{reason}</translation>
    </message>
    <message>
        <source>Lab &amp;GPU…</source>
        <translation>实验室 GPU(&amp;G)…</translation>
    </message>
    <message>
        <source>Run on the class&apos;s GPU: give the lab server&apos;s address and your join code</source>
        <translation>在班级的 GPU 上运行：填写实验室服务器的地址和你的加入码</translation>
    </message>
    <message>
        <source>Run on the class&apos;s lab GPU ({keys})</source>
        <translation>在班级的实验室 GPU 上运行（{keys}）</translation>
    </message>
    <message>
        <source>&amp;Follow the instructor</source>
        <translation>跟随讲师(&amp;F)</translation>
    </message>
    <message>
        <source>Show each run the instructor makes on the lab server as it arrives</source>
        <translation>讲师在实验室服务器上的每次运行一到达就显示出来</translation>
    </message>
    <message>
        <source>Show the instructor&apos;s runs live ({keys}); set a lab server first</source>
        <translation>实时显示讲师的运行（{keys}）；请先设置实验室服务器</translation>
    </message>
</context>
<context>
    <name>LabUnreachableStrip</name>
    <message>
        <source>Run on the &amp;model</source>
        <translation>在模型上运行(&amp;M)</translation>
    </message>
    <message>
        <source>Run this pipeline on the simulated GPU here, without the lab server</source>
        <translation>在本机的模拟 GPU 上运行此流水线，不经过实验室服务器</translation>
    </message>
    <message>
        <source>Try &amp;again</source>
        <translation>重试(&amp;A)</translation>
    </message>
    <message>
        <source>Send the run to the lab server again</source>
        <translation>再次把运行发送到实验室服务器</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>The run did not reach the lab GPU: {reason}.</source>
        <translation>运行未能到达实验室 GPU：{reason}。</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <source>The window speaks {language} from its next start.</source>
        <translation>窗口将在下次启动时使用{language}。</translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message>
        <source>Hide the lesson</source>
        <translation>隐藏课程</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一课</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一课 ▶</translation>
    </message>
    <message>
        <source>Lesson {number} of {count}</source>
        <translation>第 {number} 课，共 {count} 课</translation>
    </message>
    <message>
        <source>You have changed the settings since this lesson ran: the timeline shows your own run. Start it again from the Lessons menu to see its run.</source>
        <translation>这节课运行之后你更改了设置：时间线显示的是你自己的运行。从“课程”菜单重新开始这节课即可看到它的运行。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>The lessons could not be read: {error}</source>
        <translation>无法读取课程：{error}</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>No GPU work to zoom to: the trace on show has no copy or kernel</source>
        <translation>没有可缩放到的 GPU 工作：显示的追踪中没有拷贝或内核</translation>
    </message>
    <message>
        <source>&amp;Open session or trace…</source>
        <translation>打开会话或追踪文件(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save session…</source>
        <translation>保存会话(&amp;S)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Export &amp;PNG…</source>
        <translation>导出 PNG(&amp;P)…</translation>
    </message>
    <message>
        <source>1920 or 3840 px, for slides</source>
        <translation>1920 或 3840 像素，用于幻灯片</translation>
    </message>
    <message>
        <source>Export S&amp;VG…</source>
        <translation>导出 SVG(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Copy picture</source>
        <translation>复制图片(&amp;C)</translation>
    </message>
    <message>
        <source>Export Chrome &amp;trace…</source>
        <translation>导出 Chrome 追踪文件(&amp;T)…</translation>
    </message>
    <message>
        <source>Opens in Perfetto</source>
        <translation>可在 Perfetto 中打开</translation>
    </message>
    <message>
        <source>Export C&amp;SV…</source>
        <translation>导出 CSV(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Undo control change</source>
        <translation>撤销控件更改(&amp;U)</translation>
    </message>
    <message>
        <source>Put the controls back as they were</source>
        <translation>将控件恢复原样</translation>
    </message>
    <message>
        <source>&amp;Redo control change</source>
        <translation>重做控件更改(&amp;R)</translation>
    </message>
    <message>
        <source>Make the undone change again</source>
        <translation>再次进行已撤销的更改</translation>
    </message>
    <message>
        <source>Reset to &amp;defaults</source>
        <translation>恢复默认设置(&amp;D)</translation>
    </message>
    <message>
        <source>Forget the remembered settings: the default pipeline, device, looks and language</source>
        <translation>清除记住的设置：恢复默认的流水线、设备、外观和语言</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Live</source>
        <translation>实时(&amp;L)</translation>
    </message>
    <message>
        <source>Run again on every change</source>
        <translation>每次更改后重新运行</translation>
    </message>
    <message>
        <source>Release &amp;buffers</source>
        <translation>释放缓冲区(&amp;B)</translation>
    </message>
    <message>
        <source>Give back the pinned and device memory kept for the next run on the GPU</source>
        <translation>归还为 GPU 上下一次运行保留的页锁定内存和设备内存</translation>
    </message>
    <message>
        <source>Reset &amp;timeline view</source>
        <translation>重置时间线视图(&amp;T)</translation>
    </message>
    <message>
        <source>The whole run, from its start to its end</source>
        <translation>整个运行，从开始到结束</translation>
    </message>
    <message>
        <source>Zoom to &amp;GPU work</source>
        <translation>缩放到 GPU 工作(&amp;G)</translation>
    </message>
    <message>
        <source>From the first copy or kernel&apos;s start to the last one&apos;s end</source>
        <translation>从第一个拷贝或内核的开始到最后一个的结束</translation>
    </message>
    <message>
        <source>Time &amp;window</source>
        <translation>时间窗口(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Whole trace</source>
        <translation>整个追踪(&amp;W)</translation>
    </message>
    <message>
        <source>The figures and findings of the whole run</source>
        <translation>整个运行的指标与发现</translation>
    </message>
    <message>
        <source>What the timeline &amp;shows</source>
        <translation>时间线显示的部分(&amp;S)</translation>
    </message>
    <message>
        <source>The figures and findings of the time the timeline shows now</source>
        <translation>时间线当前显示时段的指标与发现</translation>
    </message>
    <message>
        <source>&amp;Bigger text</source>
        <translation>放大文字(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Smaller text</source>
        <translation>缩小文字(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Normal text size</source>
        <translation>正常文字大小(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Help and keyboard shortcuts</source>
        <translation>帮助和键盘快捷键(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Glossary</source>
        <translation>术语表(&amp;G)</translation>
    </message>
    <message>
        <source>Pinned, pageable, legacy stream, ...: what each means</source>
        <translation>页锁定、可分页、传统默认流……：各自的含义</translation>
    </message>
    <message>
        <source>&amp;System language</source>
        <translation>系统语言(&amp;S)</translation>
    </message>
    <message>
        <source>The language of the system&apos;s locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)</source>
        <translation>系统区域设置的语言（LANGUAGE、LC_ALL、LC_MESSAGES、LANG）</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
</context>
<context>
    <name>MetricsPanel</name>
    <message>
        <source>H2D</source>
        <translation>H2D</translation>
    </message>
    <message>
        <source>kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>D2H</source>
        <translation>D2H</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Nothing stands out: the copies and kernels overlap as well as this pipeline allows.</source>
        <translation>没有值得注意的问题：拷贝与内核的重叠已达到这条流水线所能达到的程度。</translation>
    </message>
    <message>
        <source>The figures and findings of one GPU alone: its own ops and the calls that issued them. The wall time, the host&apos;s allocating and the RAM pinned stay the whole program&apos;s.</source>
        <translation>单个 GPU 的指标与发现：它自己的操作，以及发出这些操作的调用。墙钟时间、主机的分配耗时和锁定的内存仍是整个程序的。</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Note: {note}</source>
        <translation>注意：{note}</translation>
    </message>
    <message>
        <source>{percent}
lower bound {duration}</source>
        <translation>{percent}
下界 {duration}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>{wall}
{duration} of it allocating</source>
        <translation>{wall}
其中分配耗时 {duration}</translation>
    </message>
    <message>
        <source>{code}: click to outline its {count} span</source>
        <translation>{code}：点击以勾出它的 {count} 个区段</translation>
    </message>
    <message>
        <source>{code}: click to outline its {count} spans</source>
        <translation>{code}：点击以勾出它的 {count} 个区段</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Makespan</source>
        <translation>总跨度</translation>
    </message>
    <message>
        <source>First device op&apos;s start to the last one&apos;s end</source>
        <translation>从第一个设备操作开始到最后一个设备操作结束</translation>
    </message>
    <message>
        <source>Serial</source>
        <translation>串行时间</translation>
    </message>
    <message>
        <source>The ops&apos; durations added up: the run with nothing overlapped</source>
        <translation>各操作耗时之和：没有任何重叠时的运行时间</translation>
    </message>
    <message>
        <source>Time saved</source>
        <translation>节省的时间</translation>
    </message>
    <message>
        <source>Copy time hidden</source>
        <translation>隐藏的拷贝时间</translation>
    </message>
    <message>
        <source>Communication hidden</source>
        <translation>隐藏的通信</translation>
    </message>
    <message>
        <source>Engines busy together</source>
        <translation>引擎同时忙碌</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>Wall</source>
        <translation>墙钟时间</translation>
    </message>
    <message>
        <source>Host blocked</source>
        <translation>主机阻塞</translation>
    </message>
    <message>
        <source>Time the host thread waited inside API calls for its own copies</source>
        <translation>主机线程在 API 调用中等待自己的拷贝所花的时间</translation>
    </message>
    <message>
        <source>H2D bandwidth</source>
        <translation>H2D 带宽</translation>
    </message>
    <message>
        <source>Bytes copied to the device over the H2D copies&apos; busy time</source>
        <translation>拷贝到设备的字节数除以 H2D 拷贝的忙碌时间</translation>
    </message>
    <message>
        <source>D2H bandwidth</source>
        <translation>D2H 带宽</translation>
    </message>
    <message>
        <source>Bytes copied back over the D2H copies&apos; busy time</source>
        <translation>拷回的字节数除以 D2H 拷贝的忙碌时间</translation>
    </message>
    <message>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <source>Share of the makespan each unit was working</source>
        <translation>各单元在总跨度中处于工作状态的比例</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Click a finding to outline its spans on the timeline</source>
        <translation>点击一条发现，在时间线上勾出它的区段</translation>
    </message>
</context>
<context>
    <name>PathDialogs</name>
    <message>
        <source>overlapviz sessions and traces (*.json)</source>
        <translation>overlapviz 会话和追踪 (*.json)</translation>
    </message>
    <message>
        <source>Columnar, for large traces (*.ovz)</source>
        <translation>列式文件，适合大型追踪 (*.ovz)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Sessions and traces (*.json *.json.gz *.gz *.ovz *.npz *.sqlite *.db)</source>
        <translation>会话和追踪 (*.json *.json.gz *.gz *.ovz *.npz *.sqlite *.db)</translation>
    </message>
    <message>
        <source>overlapviz sessions and traces (*.json *.json.gz *.ovz *.npz)</source>
        <translation>overlapviz 会话和追踪 (*.json *.json.gz *.ovz *.npz)</translation>
    </message>
    <message>
        <source>PyTorch profiler traces (*.json *.json.gz)</source>
        <translation>PyTorch profiler 追踪 (*.json *.json.gz)</translation>
    </message>
    <message>
        <source>Nsight Systems SQLite exports (*.sqlite *.db *.sqlite.gz *.db.gz)</source>
        <translation>Nsight Systems SQLite 导出文件 (*.sqlite *.db *.sqlite.gz *.db.gz)</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
</context>
<context>
    <name>Presentation</name>
    <message>
        <source>communication hidden {value}</source>
        <translation>通信隐藏 {value}</translation>
    </message>
    <message>
        <source>Makespan {value}</source>
        <translation>总跨度 {value}</translation>
    </message>
    <message>
        <source>copy time hidden {value}</source>
        <translation>隐藏的拷贝时间 {value}</translation>
    </message>
    <message>
        <source>efficiency {value}</source>
        <translation>效率 {value}</translation>
    </message>
    <message>
        <source>host blocked {value}</source>
        <translation>主机阻塞 {value}</translation>
    </message>
    <message>
        <source>Press → for the lesson</source>
        <translation>按 → 开始课程</translation>
    </message>
    <message>
        <source>Press → for the first of {count} lessons</source>
        <translation>按 → 开始 {count} 节课中的第一节</translation>
    </message>
    <message>
        <source>&lt;b&gt;Your own settings&lt;/b&gt; (changed from lesson {lesson})</source>
        <translation>&lt;b&gt;你自己的设置&lt;/b&gt;（改自课程 {lesson}）</translation>
    </message>
    <message>
        <source>← → lessons  ·  Space replay  ·  Esc leaves</source>
        <translation>← → 切换课程  ·  空格 重放  ·  Esc 退出</translation>
    </message>
</context>
<context>
    <name>ProblemWords</name>
    <message>
        <source>the process doing it stopped part way through</source>
        <translation>执行它的进程中途停止了</translation>
    </message>
    <message>
        <source>the process doing it stopped without an answer (exit code {code})</source>
        <translation>执行它的进程没有应答就停止了（退出码 {code}）</translation>
    </message>
    <message>
        <source>unexpected {error_type}: {error}</source>
        <translation>意外的 {error_type}：{error}</translation>
    </message>
</context>
<context>
    <name>RankActions</name>
    <message>
        <source>The two ranks selected in the overview on one time axis, the job&apos;s clock ({keys})</source>
        <translation>把总览中选中的两个 Rank 放在同一条时间轴（作业时钟）上（{keys}）</translation>
    </message>
    <message>
        <source>Open &amp;folder…</source>
        <translation>打开文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>A folder of a job&apos;s traces, one per rank: an overview of every rank, each read in a worker process</source>
        <translation>一个作业的追踪文件夹，每个 Rank 一个文件：显示所有 Rank 的总览，每个文件在工作进程中读取</translation>
    </message>
    <message>
        <source>&amp;Back to the ranks</source>
        <translation>返回 Rank 总览(&amp;B)</translation>
    </message>
    <message>
        <source>The overview of the job&apos;s ranks again, as it was (nothing is read again)</source>
        <translation>重新显示作业各 Rank 的总览，保持原样（不会重新读取）</translation>
    </message>
    <message>
        <source>Compare &amp;ranks</source>
        <translation>比较 Rank(&amp;R)</translation>
    </message>
</context>
<context>
    <name>RankNavigation</name>
    <message>
        <source>Open a folder of a job&apos;s traces, one per rank</source>
        <translation>打开一个作业的追踪文件夹（每个 Rank 一个文件）</translation>
    </message>
    <message>
        <source>Reading the ranks in {folder}…</source>
        <translation>正在读取 {folder} 中的 Rank…</translation>
    </message>
    <message>
        <source>Reading rank {rank} ({file})…</source>
        <translation>正在读取 Rank {rank}（{file}）…</translation>
    </message>
    <message>
        <source>Compare ranks takes two ranks: Ctrl+click two rows of the overview.</source>
        <translation>比较 Rank 需要两个 Rank：请在总览中 Ctrl+单击两行。</translation>
    </message>
    <message>
        <source>Reading ranks {a} and {b}…</source>
        <translation>正在读取 Rank {a} 和 Rank {b}…</translation>
    </message>
    <message>
        <source>rank {read} of {total} read</source>
        <translation>已读取 {read}/{total} 个 Rank</translation>
    </message>
    <message>
        <source>Could not open the folder {folder} as a job: {reason}</source>
        <translation>无法把文件夹 {folder} 作为作业打开：{reason}</translation>
    </message>
    <message>
        <source>{n} rank read from {folder}</source>
        <translation>已从 {folder} 读取 {n} 个 Rank</translation>
    </message>
    <message>
        <source>{n} ranks read from {folder}</source>
        <translation>已从 {folder} 读取 {n} 个 Rank</translation>
    </message>
    <message>
        <source>Could not compare the ranks: {reason}</source>
        <translation>无法比较这两个 Rank：{reason}</translation>
    </message>
    <message>
        <source>a rank&apos;s file holds no trace</source>
        <translation>有一个 Rank 的文件不含追踪</translation>
    </message>
</context>
<context>
    <name>RankOverviewPanel</name>
    <message>
        <source>Click a rank to open its timeline (or select it and press Enter); Ctrl+click two ranks to compare them ({keys}).</source>
        <translation>单击一个 Rank 打开它的时间线（或选中后按 Enter）；Ctrl+单击两个 Rank 进行比较（{keys}）。</translation>
    </message>
    <message>
        <source>Open rank</source>
        <translation>打开 Rank</translation>
    </message>
    <message>
        <source>Compare ranks</source>
        <translation>比较 Rank</translation>
    </message>
    <message>
        <source>Findings of the job</source>
        <translation>作业的发现</translation>
    </message>
    <message>
        <source>&lt;b&gt;{folder}&lt;/b&gt;: {heading}</source>
        <translation>&lt;b&gt;{folder}&lt;/b&gt;：{heading}</translation>
    </message>
    <message>
        <source>{code}: click to select its ranks in the overview</source>
        <translation>{code}：单击以在总览中选中它涉及的 Rank</translation>
    </message>
    <message>
        <source>Nothing stands out between the ranks.</source>
        <translation>各 Rank 之间没有突出的差异。</translation>
    </message>
    <message>
        <source>Both ranks on one time axis, the job&apos;s clock ({keys})</source>
        <translation>两个 Rank 放在同一条时间轴（作业时钟）上（{keys}）</translation>
    </message>
    <message>
        <source>Ctrl+click two ranks first, then press this or {keys}</source>
        <translation>先 Ctrl+单击两个 Rank，再按此按钮或 {keys}</translation>
    </message>
</context>
<context>
    <name>RankOverviewPlot</name>
    <message>
        <source>ms on the job&apos;s clock</source>
        <translation>作业时钟（ms）</translation>
    </message>
</context>
<context>
    <name>ReplaySpeed</name>
    <message>
        <source>Whole run in 5 s</source>
        <translation>5 秒放完整个运行</translation>
    </message>
    <message>
        <source>Whole run in 10 s</source>
        <translation>10 秒放完整个运行</translation>
    </message>
    <message>
        <source>Whole run in 30 s</source>
        <translation>30 秒放完整个运行</translation>
    </message>
    <message>
        <source>1/1,000 of real time</source>
        <translation>实际时间的 1/1,000</translation>
    </message>
    <message>
        <source>1/10,000 of real time</source>
        <translation>实际时间的 1/10,000</translation>
    </message>
    <message>
        <source>1/100,000 of real time</source>
        <translation>实际时间的 1/100,000</translation>
    </message>
</context>
<context>
    <name>SimulatedBadge</name>
    <message>
        <source>SIMULATED</source>
        <translation>模拟</translation>
    </message>
    <message>
        <source>SIMULATED · {device}</source>
        <translation>模拟 · {device}</translation>
    </message>
</context>
<context>
    <name>StepBox</name>
    <message>
        <source>→ or N next · ← or P previous · Esc leaves</source>
        <translation>→ 或 N 下一个 · ← 或 P 上一个 · Esc 退出</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一个</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一个 ▶</translation>
    </message>
    <message>
        <source>Leave</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>StreamFilterBar</name>
    <message>
        <source>Filter streams: a stream&apos;s title or a kernel or copy name on it</source>
        <translation>筛选流：流的标题，或流上某个内核或拷贝的名称</translation>
    </message>
    <message>
        <source>Hide quiet streams</source>
        <translation>隐藏空闲的流</translation>
    </message>
    <message>
        <source>Fold the streams busy less than 1% of their GPU&apos;s run into one lane</source>
        <translation>把忙碌时间不足其 GPU 运行时间 1% 的流合并为一条泳道</translation>
    </message>
    <message>
        <source>{shown} of {total} stream lane</source>
        <translation>显示 {shown} / {total} 条流泳道</translation>
    </message>
    <message>
        <source>{shown} of {total} stream lanes</source>
        <translation>显示 {shown} / {total} 条流泳道</translation>
    </message>
</context>
<context>
    <name>TeachingActions</name>
    <message>
        <source>How fast the replay plays</source>
        <translation>重放的播放速度</translation>
    </message>
    <message>
        <source>&amp;Pin this run as A</source>
        <translation>将此运行固定为 A(&amp;P)</translation>
    </message>
    <message>
        <source>Keep this run on show as A; change anything and run B</source>
        <translation>将此运行作为 A 保留显示；随意更改设置后运行 B</translation>
    </message>
    <message>
        <source>Compare with a &amp;file…</source>
        <translation>与文件比较(&amp;F)…</translation>
    </message>
    <message>
        <source>Keep what is on show as A and open a trace or session as B (before / after)</source>
        <translation>将当前显示的内容保留为 A，并打开一个追踪文件或会话作为 B（之前 / 之后）</translation>
    </message>
    <message>
        <source>Pageable &amp;vs pinned</source>
        <translation>可分页与页锁定对比(&amp;V)</translation>
    </message>
    <message>
        <source>Run this pipeline from pageable memory (A) and from pinned memory (B)</source>
        <translation>分别从可分页内存（A）和页锁定内存（B）运行此流水线</translation>
    </message>
    <message>
        <source>&amp;Stop comparing</source>
        <translation>停止比较(&amp;S)</translation>
    </message>
    <message>
        <source>Back to one timeline</source>
        <translation>回到单条时间线</translation>
    </message>
    <message>
        <source>Sh&amp;ared time axis</source>
        <translation>共享时间轴(&amp;A)</translation>
    </message>
    <message>
        <source>A and B on one time axis: one time, one x in both</source>
        <translation>A 和 B 使用同一条时间轴：同一时刻在两者中位于同一 x 位置</translation>
    </message>
    <message>
        <source>Each side on its &amp;own axis</source>
        <translation>两侧各用自己的时间轴(&amp;O)</translation>
    </message>
    <message>
        <source>A and B each fitted to its own run: a short run gets the whole width; x differs</source>
        <translation>A 和 B 各自适配自己的运行：较短的运行也占满整个宽度；两者的 x 含义不同</translation>
    </message>
    <message>
        <source>&amp;Explanations on the timeline</source>
        <translation>在时间线上显示解释(&amp;E)</translation>
    </message>
    <message>
        <source>Draw the findings as callouts on their spans</source>
        <translation>将发现以标注形式画在相应的区段上</translation>
    </message>
    <message>
        <source>&amp;Replay</source>
        <translation>重放(&amp;R)</translation>
    </message>
    <message>
        <source>Play the run back slowly, spans appearing as they start</source>
        <translation>慢速回放此运行，各区段在开始时依次出现</translation>
    </message>
    <message>
        <source>Replay from the &amp;start</source>
        <translation>从头重放(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Bandwidth vs transfer size…</source>
        <translation>带宽与传输大小(&amp;B)…</translation>
    </message>
    <message>
        <source>H2D and D2H bandwidth by copy size, pinned and pageable, on the chosen device</source>
        <translation>所选设备上按拷贝大小测得的 H2D 和 D2H 带宽（页锁定与可分页）</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Full screen, projector theme, large type; arrow keys step through the lessons</source>
        <translation>全屏、投影仪主题、大号字体；用方向键逐个切换课程</translation>
    </message>
    <message>
        <source>&amp;Next lesson</source>
        <translation>下一课(&amp;N)</translation>
    </message>
    <message>
        <source>P&amp;revious lesson</source>
        <translation>上一课(&amp;R)</translation>
    </message>
    <message>
        <source>Teaching</source>
        <translation>教学</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <source>L&amp;essons</source>
        <translation>课程(&amp;E)</translation>
    </message>
</context>
<context>
    <name>TeachingTools</name>
    <message>
        <source>Bandwidth vs transfer size measures a device of this machine, not the lab GPU: choose one of this machine&apos;s devices in Run on to sweep it</source>
        <translation>“带宽与传输大小”测量的是本机的设备，而不是实验室的 GPU：请在“运行于”中选择本机的一个设备来进行扫描</translation>
    </message>
</context>
<context>
    <name>Theme</name>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Projector</source>
        <translation>投影仪</translation>
    </message>
</context>
<context>
    <name>TimeAxis</name>
    <message>
        <source>Time since the run started (ms)</source>
        <translation>自运行开始的时间（ms）</translation>
    </message>
    <message>
        <source>Drag to measure a window: the figures and findings of that part of the run (Esc: the whole run)</source>
        <translation>拖动以测量一个时间窗口：运行中这一段的指标与发现（Esc：整个运行）</translation>
    </message>
</context>
<context>
    <name>WindowFileHost</name>
    <message>
        <source>{note}: {home} shows the whole trace, {gpu} the GPU work</source>
        <translation>{note}：{home} 显示整个追踪，{gpu} 显示 GPU 工作</translation>
    </message>
</context>
</TS>
